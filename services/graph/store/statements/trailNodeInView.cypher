OPTIONAL MATCH (n:GNode {id: $nodeId})
  USING INDEX SEEK n:GNode(branch_id, id)
  WHERE n.branch_id IN [$view.line, $view.main] AND (n.gone IS NULL AND ((n.branch_id = $view.line AND n.vfrom <= $view.ver AND $view.ver < n.vto) OR ($view.line <> $view.main AND n.branch_id = $view.main AND n.vfrom <= $view.base AND $view.base < n.vto AND NOT EXISTS {
    MATCH (shadow_n:GNode {branch_id: CASE WHEN n.branch_id <> $view.line THEN $view.line END, id: n.id})
      USING INDEX SEEK shadow_n:GNode(branch_id, id)
      WHERE shadow_n.vfrom <= $view.ver
  })))
RETURN n IS NOT NULL AS exists
