CALL () {
  MATCH (n:GNode)
    USING INDEX n:GNode(branch_id, vto)
    WHERE n.branch_id = $view.line AND n.vto > $view.ver AND n.vfrom <= $view.ver AND n.gone IS NULL AND size(coalesce(n.source_decisions, [])) > 0
  RETURN n
  UNION ALL
  MATCH (n:GNode)
    USING INDEX n:GNode(branch_id, vto)
    WHERE $view.line <> $view.main AND n.branch_id = $view.main AND n.vto > $view.base AND n.vfrom <= $view.base AND n.gone IS NULL AND size(coalesce(n.source_decisions, [])) > 0 AND NOT EXISTS {
      MATCH (shadow_n:GNode {branch_id: $view.line, id: n.id})
        USING INDEX SEEK shadow_n:GNode(branch_id, id)
        WHERE shadow_n.vfrom <= $view.ver
    }
  RETURN n
}
RETURN n.id AS id
  LIMIT 1
