CALL () {
  CALL () {
    MATCH (s:GNode)
      USING INDEX s:GNode(branch_id, vto)
      WHERE s.branch_id = $view.line AND s.vto > $view.ver AND s.vfrom <= $view.ver AND s.gone IS NULL AND true
    RETURN s
    UNION ALL
    MATCH (s:GNode)
      USING INDEX s:GNode(branch_id, vto)
      WHERE $view.line <> $view.main AND s.branch_id = $view.main AND s.vto > $view.base AND s.vfrom <= $view.base AND s.gone IS NULL AND true AND NOT EXISTS {
        MATCH (shadow_s:GNode {branch_id: $view.line, id: s.id})
          USING INDEX SEEK shadow_s:GNode(branch_id, id)
          WHERE shadow_s.vfrom <= $view.ver
      }
    RETURN s
  }
  RETURN count(s) AS nodes
}
CALL () {
  CALL () {
    MATCH (s:Edge)
      USING INDEX s:Edge(branch_id, vto)
      WHERE s.branch_id = $view.line AND s.vto > $view.ver AND s.vfrom <= $view.ver AND s.gone IS NULL AND true
    RETURN s
    UNION ALL
    MATCH (s:Edge)
      USING INDEX s:Edge(branch_id, vto)
      WHERE $view.line <> $view.main AND s.branch_id = $view.main AND s.vto > $view.base AND s.vfrom <= $view.base AND s.gone IS NULL AND true AND NOT EXISTS {
        MATCH (shadow_s:Edge {branch_id: $view.line, id: s.id})
          USING INDEX SEEK shadow_s:Edge(branch_id, id)
          WHERE shadow_s.vfrom <= $view.ver
      }
    RETURN s
  }
  RETURN count(s) AS edges
}
RETURN nodes, edges
