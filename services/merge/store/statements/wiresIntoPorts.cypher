UNWIND $ids AS portId
CALL (portId) {
  MATCH (n:Edge {target_handle: portId})
    USING INDEX SEEK n:Edge(branch_id, target_handle)
    WHERE n.branch_id IN [$view.line, $view.main] AND (n.gone IS NULL AND ((n.branch_id = $view.line AND n.vfrom <= $view.ver AND $view.ver < n.vto) OR ($view.line <> $view.main AND n.branch_id = $view.main AND n.vfrom <= $view.base AND $view.base < n.vto AND NOT EXISTS {
      MATCH (shadow_n:Edge {branch_id: CASE WHEN n.branch_id <> $view.line THEN $view.line END, id: n.id})
        USING INDEX SEEK shadow_n:Edge(branch_id, id)
        WHERE shadow_n.vfrom <= $view.ver
    })))
  RETURN n
}
RETURN n {.id, .source_handle, .target_handle} AS edge
