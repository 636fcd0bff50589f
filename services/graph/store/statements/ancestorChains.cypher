CALL () {
  WITH $ids AS ids
  MATCH (n:GNode)
    USING INDEX SEEK n:GNode(id)
    WHERE n.id IN ids AND n.branch_id IN [$view.line, $view.main] AND (n.gone IS NULL AND ((n.branch_id = $view.line AND n.vfrom <= $view.ver AND $view.ver < n.vto) OR ($view.line <> $view.main AND n.branch_id = $view.main AND n.vfrom <= $view.base AND $view.base < n.vto AND NOT EXISTS {
      MATCH (shadow_n:GNode {branch_id: CASE WHEN n.branch_id <> $view.line THEN $view.line END, id: n.id})
        USING INDEX SEEK shadow_n:GNode(branch_id, id)
        WHERE shadow_n.vfrom <= $view.ver
    })))
  RETURN collect(n {.id, .kind, .parent_id}) AS l0
}
CALL (l0) {
  UNWIND l0 AS below
  WITH collect(DISTINCT below.parent_id) AS ids
  MATCH (n:GNode)
    USING INDEX SEEK n:GNode(id)
    WHERE n.id IN ids AND n.branch_id IN [$view.line, $view.main] AND (n.gone IS NULL AND ((n.branch_id = $view.line AND n.vfrom <= $view.ver AND $view.ver < n.vto) OR ($view.line <> $view.main AND n.branch_id = $view.main AND n.vfrom <= $view.base AND $view.base < n.vto AND NOT EXISTS {
      MATCH (shadow_n:GNode {branch_id: CASE WHEN n.branch_id <> $view.line THEN $view.line END, id: n.id})
        USING INDEX SEEK shadow_n:GNode(branch_id, id)
        WHERE shadow_n.vfrom <= $view.ver
    })))
  RETURN collect(n {.id, .kind, .parent_id}) AS l1
}
CALL (l1) {
  UNWIND l1 AS below
  WITH collect(DISTINCT below.parent_id) AS ids
  MATCH (n:GNode)
    USING INDEX SEEK n:GNode(id)
    WHERE n.id IN ids AND n.branch_id IN [$view.line, $view.main] AND (n.gone IS NULL AND ((n.branch_id = $view.line AND n.vfrom <= $view.ver AND $view.ver < n.vto) OR ($view.line <> $view.main AND n.branch_id = $view.main AND n.vfrom <= $view.base AND $view.base < n.vto AND NOT EXISTS {
      MATCH (shadow_n:GNode {branch_id: CASE WHEN n.branch_id <> $view.line THEN $view.line END, id: n.id})
        USING INDEX SEEK shadow_n:GNode(branch_id, id)
        WHERE shadow_n.vfrom <= $view.ver
    })))
  RETURN collect(n {.id, .kind, .parent_id}) AS l2
}
CALL (l2) {
  UNWIND l2 AS below
  WITH collect(DISTINCT below.parent_id) AS ids
  MATCH (n:GNode)
    USING INDEX SEEK n:GNode(id)
    WHERE n.id IN ids AND n.branch_id IN [$view.line, $view.main] AND (n.gone IS NULL AND ((n.branch_id = $view.line AND n.vfrom <= $view.ver AND $view.ver < n.vto) OR ($view.line <> $view.main AND n.branch_id = $view.main AND n.vfrom <= $view.base AND $view.base < n.vto AND NOT EXISTS {
      MATCH (shadow_n:GNode {branch_id: CASE WHEN n.branch_id <> $view.line THEN $view.line END, id: n.id})
        USING INDEX SEEK shadow_n:GNode(branch_id, id)
        WHERE shadow_n.vfrom <= $view.ver
    })))
  RETURN collect(n {.id, .kind, .parent_id}) AS l3
}
WITH l0 AS parents, l1 + l2 + l3 AS ancestors
RETURN parents, ancestors
