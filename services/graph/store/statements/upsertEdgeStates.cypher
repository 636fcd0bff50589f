UNWIND $rows AS row
CALL (row) {
  OPTIONAL MATCH (vis:Edge {id: row.id})
    USING INDEX SEEK vis:Edge(branch_id, id)
    WHERE vis.branch_id IN [$view.line, $view.main] AND (vis.gone IS NULL AND ((vis.branch_id = $view.line AND vis.vfrom <= $view.ver AND $view.ver < vis.vto) OR ($view.line <> $view.main AND vis.branch_id = $view.main AND vis.vfrom <= $view.base AND $view.base < vis.vto AND NOT EXISTS {
      MATCH (shadow_vis:Edge {branch_id: CASE WHEN vis.branch_id <> $view.line THEN $view.line END, id: vis.id})
        USING INDEX SEEK shadow_vis:Edge(branch_id, id)
        WHERE shadow_vis.vfrom <= $view.ver
    })))
  RETURN vis
}
CALL (row, vis) {
  WITH row, vis
    WHERE vis IS NOT NULL AND vis.branch_id = $view.line AND vis.vfrom = $view.ver
  FOREACH (_ IN CASE WHEN coalesce(row.replace, false) THEN [1] ELSE [] END | SET vis = row.props, vis.branch_id = $view.line, vis.id = row.id, vis.vfrom = toInteger($view.ver), vis.vto = 9007199254740991)
  FOREACH (_ IN CASE WHEN coalesce(row.replace, false) THEN [] ELSE [1] END | SET vis += row.props)
}
CALL (row, vis) {
  WITH row, vis
    WHERE vis IS NULL OR vis.branch_id <> $view.line OR vis.vfrom < $view.ver
  OPTIONAL MATCH (cur:Edge {branch_id: $view.line, id: row.id})
    USING INDEX SEEK cur:Edge(branch_id, id)
    WHERE cur.vto = 9007199254740991
  FOREACH (c IN CASE WHEN cur IS NULL THEN [] ELSE [cur] END | SET c.vto = toInteger($view.ver))
  WITH row, vis, CASE WHEN vis IS NULL OR coalesce(row.replace, false) THEN {} ELSE properties(vis) END AS before
  CREATE (n:Edge)
  SET n = before, n += row.props
  SET n.branch_id = $view.line, n.id = row.id, n.vfrom = toInteger($view.ver), n.vto = 9007199254740991
  REMOVE n.gone
}
RETURN count(row) AS written
