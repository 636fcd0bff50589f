WITH $view AS view, $ids AS start
CALL (start, view) {
  WITH start AS f0, view
  CALL (f0, view) {
    UNWIND f0 AS x
    MATCH (c:GNode {parent_id: x})
      USING INDEX SEEK c:GNode(branch_id, parent_id)
      WHERE c.branch_id IN [view.line, view.main] AND (c.gone IS NULL AND ((c.branch_id = view.line AND c.vfrom <= view.ver AND view.ver < c.vto) OR (view.line <> view.main AND c.branch_id = view.main AND c.vfrom <= view.base AND view.base < c.vto AND NOT EXISTS {
        MATCH (shadow_c:GNode {branch_id: CASE WHEN c.branch_id <> view.line THEN view.line END, id: c.id})
          USING INDEX SEEK shadow_c:GNode(branch_id, id)
          WHERE shadow_c.vfrom <= view.ver
      })))
    RETURN collect(c.id) AS f1
  }
  CALL (f1, view) {
    UNWIND f1 AS x
    MATCH (c:GNode {parent_id: x})
      USING INDEX SEEK c:GNode(branch_id, parent_id)
      WHERE c.branch_id IN [view.line, view.main] AND (c.gone IS NULL AND ((c.branch_id = view.line AND c.vfrom <= view.ver AND view.ver < c.vto) OR (view.line <> view.main AND c.branch_id = view.main AND c.vfrom <= view.base AND view.base < c.vto AND NOT EXISTS {
        MATCH (shadow_c:GNode {branch_id: CASE WHEN c.branch_id <> view.line THEN view.line END, id: c.id})
          USING INDEX SEEK shadow_c:GNode(branch_id, id)
          WHERE shadow_c.vfrom <= view.ver
      })))
    RETURN collect(c.id) AS f2
  }
  CALL (f2, view) {
    UNWIND f2 AS x
    MATCH (c:GNode {parent_id: x})
      USING INDEX SEEK c:GNode(branch_id, parent_id)
      WHERE c.branch_id IN [view.line, view.main] AND (c.gone IS NULL AND ((c.branch_id = view.line AND c.vfrom <= view.ver AND view.ver < c.vto) OR (view.line <> view.main AND c.branch_id = view.main AND c.vfrom <= view.base AND view.base < c.vto AND NOT EXISTS {
        MATCH (shadow_c:GNode {branch_id: CASE WHEN c.branch_id <> view.line THEN view.line END, id: c.id})
          USING INDEX SEEK shadow_c:GNode(branch_id, id)
          WHERE shadow_c.vfrom <= view.ver
      })))
    RETURN collect(c.id) AS f3
  }
  CALL (f3, view) {
    UNWIND f3 AS x
    MATCH (c:GNode {parent_id: x})
      USING INDEX SEEK c:GNode(branch_id, parent_id)
      WHERE c.branch_id IN [view.line, view.main] AND (c.gone IS NULL AND ((c.branch_id = view.line AND c.vfrom <= view.ver AND view.ver < c.vto) OR (view.line <> view.main AND c.branch_id = view.main AND c.vfrom <= view.base AND view.base < c.vto AND NOT EXISTS {
        MATCH (shadow_c:GNode {branch_id: CASE WHEN c.branch_id <> view.line THEN view.line END, id: c.id})
          USING INDEX SEEK shadow_c:GNode(branch_id, id)
          WHERE shadow_c.vfrom <= view.ver
      })))
    RETURN collect(c.id) AS f4
  }
  CALL (f4, view) {
    UNWIND f4 AS x
    MATCH (c:GNode {parent_id: x})
      USING INDEX SEEK c:GNode(branch_id, parent_id)
      WHERE c.branch_id IN [view.line, view.main] AND (c.gone IS NULL AND ((c.branch_id = view.line AND c.vfrom <= view.ver AND view.ver < c.vto) OR (view.line <> view.main AND c.branch_id = view.main AND c.vfrom <= view.base AND view.base < c.vto AND NOT EXISTS {
        MATCH (shadow_c:GNode {branch_id: CASE WHEN c.branch_id <> view.line THEN view.line END, id: c.id})
          USING INDEX SEEK shadow_c:GNode(branch_id, id)
          WHERE shadow_c.vfrom <= view.ver
      })))
    RETURN collect(c.id) AS f5
  }
  CALL (f5, view) {
    UNWIND f5 AS x
    MATCH (c:GNode {parent_id: x})
      USING INDEX SEEK c:GNode(branch_id, parent_id)
      WHERE c.branch_id IN [view.line, view.main] AND (c.gone IS NULL AND ((c.branch_id = view.line AND c.vfrom <= view.ver AND view.ver < c.vto) OR (view.line <> view.main AND c.branch_id = view.main AND c.vfrom <= view.base AND view.base < c.vto AND NOT EXISTS {
        MATCH (shadow_c:GNode {branch_id: CASE WHEN c.branch_id <> view.line THEN view.line END, id: c.id})
          USING INDEX SEEK shadow_c:GNode(branch_id, id)
          WHERE shadow_c.vfrom <= view.ver
      })))
    RETURN collect(c.id) AS f6
  }
  CALL (f6, view) {
    UNWIND f6 AS x
    MATCH (c:GNode {parent_id: x})
      USING INDEX SEEK c:GNode(branch_id, parent_id)
      WHERE c.branch_id IN [view.line, view.main] AND (c.gone IS NULL AND ((c.branch_id = view.line AND c.vfrom <= view.ver AND view.ver < c.vto) OR (view.line <> view.main AND c.branch_id = view.main AND c.vfrom <= view.base AND view.base < c.vto AND NOT EXISTS {
        MATCH (shadow_c:GNode {branch_id: CASE WHEN c.branch_id <> view.line THEN view.line END, id: c.id})
          USING INDEX SEEK shadow_c:GNode(branch_id, id)
          WHERE shadow_c.vfrom <= view.ver
      })))
    RETURN collect(c.id) AS f7
  }
  CALL (f7, view) {
    UNWIND f7 AS x
    MATCH (c:GNode {parent_id: x})
      USING INDEX SEEK c:GNode(branch_id, parent_id)
      WHERE c.branch_id IN [view.line, view.main] AND (c.gone IS NULL AND ((c.branch_id = view.line AND c.vfrom <= view.ver AND view.ver < c.vto) OR (view.line <> view.main AND c.branch_id = view.main AND c.vfrom <= view.base AND view.base < c.vto AND NOT EXISTS {
        MATCH (shadow_c:GNode {branch_id: CASE WHEN c.branch_id <> view.line THEN view.line END, id: c.id})
          USING INDEX SEEK shadow_c:GNode(branch_id, id)
          WHERE shadow_c.vfrom <= view.ver
      })))
    RETURN collect(c.id) AS f8
  }
  RETURN f1 + f2 + f3 + f4 + f5 + f6 + f7 + f8 AS found, f8 AS foundFrontier
}
RETURN found, foundFrontier AS frontier
