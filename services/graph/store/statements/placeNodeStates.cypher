UNWIND $positions AS pos
CALL (pos) {
  MATCH (s:GNode {id: pos.id})
    USING INDEX SEEK s:GNode(branch_id, id)
    WHERE s.branch_id IN [$view.line, $view.main] AND (s.gone IS NULL AND ((s.branch_id = $view.line AND s.vfrom <= $view.ver AND $view.ver < s.vto) OR ($view.line <> $view.main AND s.branch_id = $view.main AND s.vfrom <= $view.base AND $view.base < s.vto AND NOT EXISTS {
      MATCH (shadow_s:GNode {branch_id: CASE WHEN s.branch_id <> $view.line THEN $view.line END, id: s.id})
        USING INDEX SEEK shadow_s:GNode(branch_id, id)
        WHERE shadow_s.vfrom <= $view.ver
    })))
  RETURN s
}
CALL (s, pos) {
  WITH s, pos
    WHERE s.branch_id = $view.line
  SET s.x = pos.x, s.y = pos.y
}
CALL (s, pos) {
  WITH s, pos
    WHERE s.branch_id <> $view.line
  CREATE (c:GNode)
  SET c = properties(s), c.branch_id = $view.line, c.vfrom = toInteger($view.ver), c.vto = 9007199254740991, c.x = pos.x, c.y = pos.y
}
RETURN count(s) AS written
