CALL () {
  MATCH (e:Edge)
    USING INDEX e:Edge(branch_id, vto)
    WHERE e.branch_id = $view.line AND e.vto > $view.ver AND e.vfrom <= $view.ver AND e.gone IS NULL AND true
  RETURN e
  UNION ALL
  MATCH (e:Edge)
    USING INDEX e:Edge(branch_id, vto)
    WHERE $view.line <> $view.main AND e.branch_id = $view.main AND e.vto > $view.base AND e.vfrom <= $view.base AND e.gone IS NULL AND true AND NOT EXISTS {
      MATCH (shadow_e:Edge {branch_id: $view.line, id: e.id})
        USING INDEX SEEK shadow_e:Edge(branch_id, id)
        WHERE shadow_e.vfrom <= $view.ver
    }
  RETURN e
}
OPTIONAL MATCH (sp:Port {id: e.source_handle})
  USING INDEX SEEK sp:Port(branch_id, id)
  WHERE sp.branch_id IN [$view.line, $view.main] AND (sp.gone IS NULL AND ((sp.branch_id = $view.line AND sp.vfrom <= $view.ver AND $view.ver < sp.vto) OR ($view.line <> $view.main AND sp.branch_id = $view.main AND sp.vfrom <= $view.base AND $view.base < sp.vto AND NOT EXISTS {
    MATCH (shadow_sp:Port {branch_id: CASE WHEN sp.branch_id <> $view.line THEN $view.line END, id: sp.id})
      USING INDEX SEEK shadow_sp:Port(branch_id, id)
      WHERE shadow_sp.vfrom <= $view.ver
  })))
OPTIONAL MATCH (tp:Port {id: e.target_handle})
  USING INDEX SEEK tp:Port(branch_id, id)
  WHERE tp.branch_id IN [$view.line, $view.main] AND (tp.gone IS NULL AND ((tp.branch_id = $view.line AND tp.vfrom <= $view.ver AND $view.ver < tp.vto) OR ($view.line <> $view.main AND tp.branch_id = $view.main AND tp.vfrom <= $view.base AND $view.base < tp.vto AND NOT EXISTS {
    MATCH (shadow_tp:Port {branch_id: CASE WHEN tp.branch_id <> $view.line THEN $view.line END, id: tp.id})
      USING INDEX SEEK shadow_tp:Port(branch_id, id)
      WHERE shadow_tp.vfrom <= $view.ver
  })))
WITH e, sp, tp, (e.source_handle IS NOT NULL AND sp IS NULL) OR (e.target_handle IS NOT NULL AND tp IS NULL) AS dangling
  WHERE dangling OR (sp IS NOT NULL AND tp IS NOT NULL AND sp.type <> tp.type)
RETURN e.id AS locator, dangling, left(coalesce(sp.type, ''), $quoted) AS sourceType, left(coalesce(tp.type, ''), $quoted) AS targetType
