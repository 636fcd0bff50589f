CALL () {
  MATCH (n:GNode)
    USING INDEX n:GNode(branch_id, id)
    WHERE n.branch_id = $view.line AND n.id > $after AND n.vto > $view.ver AND n.vfrom <= $view.ver AND n.gone IS NULL
  RETURN n
    ORDER BY n.branch_id, n.id
    LIMIT toInteger($limit)
  UNION ALL
  MATCH (n:GNode)
    USING INDEX n:GNode(branch_id, id)
    WHERE n.branch_id = CASE WHEN $view.line <> $view.main THEN $view.main END AND n.id > $after AND n.vto > $view.base AND n.vfrom <= $view.base AND n.gone IS NULL AND NOT EXISTS {
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
CALL (n) {
  OPTIONAL MATCH (h:GNode {id: n.id})
    USING INDEX SEEK h:GNode(branch_id, id)
    WHERE h.branch_id IN [$head.line, $head.main] AND (h.gone IS NULL AND ((h.branch_id = $head.line AND h.vfrom <= $head.ver AND $head.ver < h.vto) OR ($head.line <> $head.main AND h.branch_id = $head.main AND h.vfrom <= $head.base AND $head.base < h.vto AND NOT EXISTS {
      MATCH (shadow_h:GNode {branch_id: CASE WHEN h.branch_id <> $head.line THEN $head.line END, id: h.id})
        USING INDEX SEEK shadow_h:GNode(branch_id, id)
        WHERE shadow_h.vfrom <= $head.ver
    })))
  RETURN CASE WHEN h IS NULL THEN null ELSE {x: h.x, y: h.y} END AS head
}
RETURN n {.*} AS node, ports, head
