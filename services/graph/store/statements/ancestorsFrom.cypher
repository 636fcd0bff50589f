WITH $view AS view, $ids AS l0
CALL (l0, view) {
  UNWIND l0 AS id
  WITH DISTINCT id, view WHERE id IS NOT NULL
  MATCH (a:GNode {id: id})
    USING INDEX SEEK a:GNode(branch_id, id)
    WHERE a.branch_id IN [view.line, view.main] AND (a.gone IS NULL AND ((a.branch_id = view.line AND a.vfrom <= view.ver AND view.ver < a.vto)
       OR (view.line <> view.main AND a.branch_id = view.main
           AND a.vfrom <= view.base AND view.base < a.vto
           AND NOT EXISTS { MATCH (shadow_a:GNode {branch_id: CASE WHEN a.branch_id <> view.line THEN view.line END, id: a.id})
                            USING INDEX SEEK shadow_a:GNode(branch_id, id)
                            WHERE shadow_a.vfrom <= view.ver })))
  RETURN collect(a {.id, .parent_id, .name}) AS l1
}
CALL (l1, view) {
  UNWIND [x IN l1 | x.parent_id] AS id
  WITH DISTINCT id, view WHERE id IS NOT NULL
  MATCH (a:GNode {id: id})
    USING INDEX SEEK a:GNode(branch_id, id)
    WHERE a.branch_id IN [view.line, view.main] AND (a.gone IS NULL AND ((a.branch_id = view.line AND a.vfrom <= view.ver AND view.ver < a.vto)
       OR (view.line <> view.main AND a.branch_id = view.main
           AND a.vfrom <= view.base AND view.base < a.vto
           AND NOT EXISTS { MATCH (shadow_a:GNode {branch_id: CASE WHEN a.branch_id <> view.line THEN view.line END, id: a.id})
                            USING INDEX SEEK shadow_a:GNode(branch_id, id)
                            WHERE shadow_a.vfrom <= view.ver })))
  RETURN collect(a {.id, .parent_id, .name}) AS l2
}
CALL (l2, view) {
  UNWIND [x IN l2 | x.parent_id] AS id
  WITH DISTINCT id, view WHERE id IS NOT NULL
  MATCH (a:GNode {id: id})
    USING INDEX SEEK a:GNode(branch_id, id)
    WHERE a.branch_id IN [view.line, view.main] AND (a.gone IS NULL AND ((a.branch_id = view.line AND a.vfrom <= view.ver AND view.ver < a.vto)
       OR (view.line <> view.main AND a.branch_id = view.main
           AND a.vfrom <= view.base AND view.base < a.vto
           AND NOT EXISTS { MATCH (shadow_a:GNode {branch_id: CASE WHEN a.branch_id <> view.line THEN view.line END, id: a.id})
                            USING INDEX SEEK shadow_a:GNode(branch_id, id)
                            WHERE shadow_a.vfrom <= view.ver })))
  RETURN collect(a {.id, .parent_id, .name}) AS l3
}
CALL (l3, view) {
  UNWIND [x IN l3 | x.parent_id] AS id
  WITH DISTINCT id, view WHERE id IS NOT NULL
  MATCH (a:GNode {id: id})
    USING INDEX SEEK a:GNode(branch_id, id)
    WHERE a.branch_id IN [view.line, view.main] AND (a.gone IS NULL AND ((a.branch_id = view.line AND a.vfrom <= view.ver AND view.ver < a.vto)
       OR (view.line <> view.main AND a.branch_id = view.main
           AND a.vfrom <= view.base AND view.base < a.vto
           AND NOT EXISTS { MATCH (shadow_a:GNode {branch_id: CASE WHEN a.branch_id <> view.line THEN view.line END, id: a.id})
                            USING INDEX SEEK shadow_a:GNode(branch_id, id)
                            WHERE shadow_a.vfrom <= view.ver })))
  RETURN collect(a {.id, .parent_id, .name}) AS l4
}
CALL (l4, view) {
  UNWIND [x IN l4 | x.parent_id] AS id
  WITH DISTINCT id, view WHERE id IS NOT NULL
  MATCH (a:GNode {id: id})
    USING INDEX SEEK a:GNode(branch_id, id)
    WHERE a.branch_id IN [view.line, view.main] AND (a.gone IS NULL AND ((a.branch_id = view.line AND a.vfrom <= view.ver AND view.ver < a.vto)
       OR (view.line <> view.main AND a.branch_id = view.main
           AND a.vfrom <= view.base AND view.base < a.vto
           AND NOT EXISTS { MATCH (shadow_a:GNode {branch_id: CASE WHEN a.branch_id <> view.line THEN view.line END, id: a.id})
                            USING INDEX SEEK shadow_a:GNode(branch_id, id)
                            WHERE shadow_a.vfrom <= view.ver })))
  RETURN collect(a {.id, .parent_id, .name}) AS l5
}
CALL (l5, view) {
  UNWIND [x IN l5 | x.parent_id] AS id
  WITH DISTINCT id, view WHERE id IS NOT NULL
  MATCH (a:GNode {id: id})
    USING INDEX SEEK a:GNode(branch_id, id)
    WHERE a.branch_id IN [view.line, view.main] AND (a.gone IS NULL AND ((a.branch_id = view.line AND a.vfrom <= view.ver AND view.ver < a.vto)
       OR (view.line <> view.main AND a.branch_id = view.main
           AND a.vfrom <= view.base AND view.base < a.vto
           AND NOT EXISTS { MATCH (shadow_a:GNode {branch_id: CASE WHEN a.branch_id <> view.line THEN view.line END, id: a.id})
                            USING INDEX SEEK shadow_a:GNode(branch_id, id)
                            WHERE shadow_a.vfrom <= view.ver })))
  RETURN collect(a {.id, .parent_id, .name}) AS l6
}
CALL (l6, view) {
  UNWIND [x IN l6 | x.parent_id] AS id
  WITH DISTINCT id, view WHERE id IS NOT NULL
  MATCH (a:GNode {id: id})
    USING INDEX SEEK a:GNode(branch_id, id)
    WHERE a.branch_id IN [view.line, view.main] AND (a.gone IS NULL AND ((a.branch_id = view.line AND a.vfrom <= view.ver AND view.ver < a.vto)
       OR (view.line <> view.main AND a.branch_id = view.main
           AND a.vfrom <= view.base AND view.base < a.vto
           AND NOT EXISTS { MATCH (shadow_a:GNode {branch_id: CASE WHEN a.branch_id <> view.line THEN view.line END, id: a.id})
                            USING INDEX SEEK shadow_a:GNode(branch_id, id)
                            WHERE shadow_a.vfrom <= view.ver })))
  RETURN collect(a {.id, .parent_id, .name}) AS l7
}
CALL (l7, view) {
  UNWIND [x IN l7 | x.parent_id] AS id
  WITH DISTINCT id, view WHERE id IS NOT NULL
  MATCH (a:GNode {id: id})
    USING INDEX SEEK a:GNode(branch_id, id)
    WHERE a.branch_id IN [view.line, view.main] AND (a.gone IS NULL AND ((a.branch_id = view.line AND a.vfrom <= view.ver AND view.ver < a.vto)
       OR (view.line <> view.main AND a.branch_id = view.main
           AND a.vfrom <= view.base AND view.base < a.vto
           AND NOT EXISTS { MATCH (shadow_a:GNode {branch_id: CASE WHEN a.branch_id <> view.line THEN view.line END, id: a.id})
                            USING INDEX SEEK shadow_a:GNode(branch_id, id)
                            WHERE shadow_a.vfrom <= view.ver })))
  RETURN collect(a {.id, .parent_id, .name}) AS l8
}
CALL (l8, view) {
  UNWIND [x IN l8 | x.parent_id] AS id
  WITH DISTINCT id, view WHERE id IS NOT NULL
  MATCH (a:GNode {id: id})
    USING INDEX SEEK a:GNode(branch_id, id)
    WHERE a.branch_id IN [view.line, view.main] AND (a.gone IS NULL AND ((a.branch_id = view.line AND a.vfrom <= view.ver AND view.ver < a.vto)
       OR (view.line <> view.main AND a.branch_id = view.main
           AND a.vfrom <= view.base AND view.base < a.vto
           AND NOT EXISTS { MATCH (shadow_a:GNode {branch_id: CASE WHEN a.branch_id <> view.line THEN view.line END, id: a.id})
                            USING INDEX SEEK shadow_a:GNode(branch_id, id)
                            WHERE shadow_a.vfrom <= view.ver })))
  RETURN collect(a {.id, .parent_id, .name}) AS l9
}
RETURN l1 + l2 + l3 + l4 + l5 + l6 + l7 + l8 + l9 AS nodes
