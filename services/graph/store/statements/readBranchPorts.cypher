CALL () {
  MATCH (p:Port)
    USING INDEX p:Port(branch_id, vto)
    WHERE p.branch_id = $view.line AND p.vto > $view.ver AND p.vfrom <= $view.ver AND p.gone IS NULL AND true
  RETURN p
  UNION ALL
  MATCH (p:Port)
    USING INDEX p:Port(branch_id, vto)
    WHERE $view.line <> $view.main AND p.branch_id = $view.main AND p.vto > $view.base AND p.vfrom <= $view.base AND p.gone IS NULL AND true AND NOT EXISTS {
      MATCH (shadow_p:Port {branch_id: $view.line, id: p.id})
        USING INDEX SEEK shadow_p:Port(branch_id, id)
        WHERE shadow_p.vfrom <= $view.ver
    }
  RETURN p
}
RETURN p {.*} AS port
  ORDER BY p.node_id, p.channel, p.ord
