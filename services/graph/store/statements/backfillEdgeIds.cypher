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
RETURN collect(e.id) AS ids
