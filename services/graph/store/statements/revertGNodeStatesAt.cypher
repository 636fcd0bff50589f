UNWIND $ids AS id
CALL (id) {
  OPTIONAL MATCH (s:GNode {id: id})
    USING INDEX SEEK s:GNode(branch_id, id)
    WHERE s.branch_id IN [$view.line, $view.main] AND (s.gone IS NULL AND ((s.branch_id = $view.line AND s.vfrom <= $view.ver AND $view.ver < s.vto) OR ($view.line <> $view.main AND s.branch_id = $view.main AND s.vfrom <= $view.base AND $view.base < s.vto AND NOT EXISTS {
      MATCH (shadow_s:GNode {branch_id: CASE WHEN s.branch_id <> $view.line THEN $view.line END, id: s.id})
        USING INDEX SEEK shadow_s:GNode(branch_id, id)
        WHERE shadow_s.vfrom <= $view.ver
    })))
  RETURN s
}
RETURN id, CASE WHEN s IS NULL THEN null ELSE properties(s) END AS state
