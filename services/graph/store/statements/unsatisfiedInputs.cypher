CALL () {
  MATCH (p:Port)
    USING INDEX p:Port(branch_id, vto)
    WHERE p.branch_id = $view.line AND p.vto > $view.ver AND p.vfrom <= $view.ver AND p.gone IS NULL AND p.channel = 'inputs'
  RETURN p
  UNION ALL
  MATCH (p:Port)
    USING INDEX p:Port(branch_id, vto)
    WHERE $view.line <> $view.main AND p.branch_id = $view.main AND p.vto > $view.base AND p.vfrom <= $view.base AND p.gone IS NULL AND p.channel = 'inputs' AND NOT EXISTS {
      MATCH (shadow_p:Port {branch_id: $view.line, id: p.id})
        USING INDEX SEEK shadow_p:Port(branch_id, id)
        WHERE shadow_p.vfrom <= $view.ver
    }
  RETURN p
}
WITH p
  WHERE NOT EXISTS {
    MATCH (e:Edge {target_handle: p.id})
      USING INDEX SEEK e:Edge(branch_id, target_handle)
      WHERE e.branch_id IN [$view.line, $view.main] AND (e.gone IS NULL AND ((e.branch_id = $view.line AND e.vfrom <= $view.ver AND $view.ver < e.vto) OR ($view.line <> $view.main AND e.branch_id = $view.main AND e.vfrom <= $view.base AND $view.base < e.vto AND NOT EXISTS {
        MATCH (shadow_e:Edge {branch_id: CASE WHEN e.branch_id <> $view.line THEN $view.line END, id: e.id})
          USING INDEX SEEK shadow_e:Edge(branch_id, id)
          WHERE shadow_e.vfrom <= $view.ver
      })))
  }
RETURN p.id AS locator, left(coalesce(p.name, ''), $quoted) AS name
