MATCH (e:Edge {id: $id})
  USING INDEX SEEK e:Edge(branch_id, id)
  WHERE e.branch_id IN [$view.line, $view.main] AND (e.gone IS NULL AND ((e.branch_id = $view.line AND e.vfrom <= $view.ver AND $view.ver < e.vto) OR ($view.line <> $view.main AND e.branch_id = $view.main AND e.vfrom <= $view.base AND $view.base < e.vto AND NOT EXISTS {
    MATCH (shadow_e:Edge {branch_id: CASE WHEN e.branch_id <> $view.line THEN $view.line END, id: e.id})
      USING INDEX SEEK shadow_e:Edge(branch_id, id)
      WHERE shadow_e.vfrom <= $view.ver
  })))
RETURN e.id AS id
