CALL () {
  MATCH (n:GNode)
    USING INDEX n:GNode(branch_id, id)
    WHERE n.branch_id = $view.line AND n.id > $after AND n.vto > $view.ver AND n.vfrom <= $view.ver AND n.gone IS NULL AND NOT n.kind IN ['boundary', 'interface']
  RETURN n
    ORDER BY n.branch_id, n.id
    LIMIT toInteger($limit)
  UNION ALL
  MATCH (n:GNode)
    USING INDEX n:GNode(branch_id, id)
    WHERE n.branch_id = CASE WHEN $view.line <> $view.main THEN $view.main END AND n.id > $after AND n.vto > $view.base AND n.vfrom <= $view.base AND n.gone IS NULL AND NOT n.kind IN ['boundary', 'interface'] AND NOT EXISTS {
      MATCH (shadow_n:GNode {branch_id: $view.line, id: n.id})
        USING INDEX SEEK shadow_n:GNode(branch_id, id)
        WHERE shadow_n.vfrom <= $view.ver
    }
  RETURN n
    ORDER BY n.branch_id, n.id
    LIMIT toInteger($limit)
}
WITH n
  ORDER BY n.id
  LIMIT toInteger($limit)
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
