CALL () {
  UNWIND $ids AS pid
  MATCH (c:GNode {parent_id: pid})
    USING INDEX SEEK c:GNode(branch_id, parent_id)
    WHERE c.branch_id IN [$view.line, $view.main] AND (c.gone IS NULL AND ((c.branch_id = $view.line AND c.vfrom <= $view.ver AND $view.ver < c.vto) OR ($view.line <> $view.main AND c.branch_id = $view.main AND c.vfrom <= $view.base AND $view.base < c.vto AND NOT EXISTS {
      MATCH (shadow_c:GNode {branch_id: CASE WHEN c.branch_id <> $view.line THEN $view.line END, id: c.id})
        USING INDEX SEEK shadow_c:GNode(branch_id, id)
        WHERE shadow_c.vfrom <= $view.ver
    })))
  RETURN collect(c.id) AS childIds
}
CALL () {
  UNWIND $ids AS nid
  MATCH (p:Port {node_id: nid})
    USING INDEX SEEK p:Port(branch_id, node_id)
    WHERE p.branch_id IN [$view.line, $view.main] AND (p.gone IS NULL AND ((p.branch_id = $view.line AND p.vfrom <= $view.ver AND $view.ver < p.vto) OR ($view.line <> $view.main AND p.branch_id = $view.main AND p.vfrom <= $view.base AND $view.base < p.vto AND NOT EXISTS {
      MATCH (shadow_p:Port {branch_id: CASE WHEN p.branch_id <> $view.line THEN $view.line END, id: p.id})
        USING INDEX SEEK shadow_p:Port(branch_id, id)
        WHERE shadow_p.vfrom <= $view.ver
    })))
  RETURN collect(p.id) AS portIds
}
RETURN childIds, portIds
