UNWIND range(0, size($ids) - 1) AS i
MATCH (n:GNode {id: $ids[i]})
  USING INDEX SEEK n:GNode(branch_id, id)
  WHERE n.branch_id IN [$view.line, $view.main] AND (n.gone IS NULL AND ((n.branch_id = $view.line AND n.vfrom <= $view.ver AND $view.ver < n.vto) OR ($view.line <> $view.main AND n.branch_id = $view.main AND n.vfrom <= $view.base AND $view.base < n.vto AND NOT EXISTS {
    MATCH (shadow_n:GNode {branch_id: CASE WHEN n.branch_id <> $view.line THEN $view.line END, id: n.id})
      USING INDEX SEEK shadow_n:GNode(branch_id, id)
      WHERE shadow_n.vfrom <= $view.ver
  })))
CALL (n) {
  MATCH (p:Port {node_id: n.id})
    USING INDEX SEEK p:Port(branch_id, node_id)
    WHERE p.branch_id IN [$view.line, $view.main] AND (p.gone IS NULL AND ((p.branch_id = $view.line AND p.vfrom <= $view.ver AND $view.ver < p.vto) OR ($view.line <> $view.main AND p.branch_id = $view.main AND p.vfrom <= $view.base AND $view.base < p.vto AND NOT EXISTS {
      MATCH (shadow_p:Port {branch_id: CASE WHEN p.branch_id <> $view.line THEN $view.line END, id: p.id})
        USING INDEX SEEK shadow_p:Port(branch_id, id)
        WHERE shadow_p.vfrom <= $view.ver
    })))
  WITH p
    ORDER BY p.channel, p.ord
  RETURN collect(p {.*}) AS ports
}
RETURN n {.*} AS node, ports
  ORDER BY i
