UNWIND $ids AS nodeId
CALL (nodeId) {
  MATCH (n:Port {node_id: nodeId})
    USING INDEX SEEK n:Port(branch_id, node_id)
    WHERE n.branch_id IN [$view.line, $view.main] AND (n.gone IS NULL AND ((n.branch_id = $view.line AND n.vfrom <= $view.ver AND $view.ver < n.vto) OR ($view.line <> $view.main AND n.branch_id = $view.main AND n.vfrom <= $view.base AND $view.base < n.vto AND NOT EXISTS {
      MATCH (shadow_n:Port {branch_id: CASE WHEN n.branch_id <> $view.line THEN $view.line END, id: n.id})
        USING INDEX SEEK shadow_n:Port(branch_id, id)
        WHERE shadow_n.vfrom <= $view.ver
    })))
  RETURN n
}
RETURN n {.id, .node_id, .channel, .ord, .name, .type, .description, .external, .contract_name} AS port
