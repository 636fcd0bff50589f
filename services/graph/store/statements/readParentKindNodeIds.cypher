CALL () {
  MATCH (n:GNode)
    USING INDEX n:GNode(branch_id, id)
    WHERE n.branch_id = $view.line AND n.id > $after AND n.vto > $view.ver AND n.vfrom <= $view.ver AND n.gone IS NULL AND n.kind IN ['boundary', 'interface']
  RETURN n
    ORDER BY n.branch_id, n.id
    LIMIT toInteger($limit)
  UNION ALL
  MATCH (n:GNode)
    USING INDEX n:GNode(branch_id, id)
    WHERE n.branch_id = CASE WHEN $view.line <> $view.main THEN $view.main END AND n.id > $after AND n.vto > $view.base AND n.vfrom <= $view.base AND n.gone IS NULL AND n.kind IN ['boundary', 'interface'] AND NOT EXISTS {
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
RETURN n.id AS id, n.parent_id AS parent_id
