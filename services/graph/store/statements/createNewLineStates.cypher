CYPHER replan=skip
CALL () {
  UNWIND $nodes AS row
  CREATE (n:GNode)
  SET n = row.props, n.branch_id = $view.line, n.id = row.id, n.vfrom = toInteger($view.ver), n.vto = 9007199254740991
  RETURN count(row) AS nodes
}
CALL () {
  UNWIND $ports AS row
  CREATE (n:Port)
  SET n = row.props, n.branch_id = $view.line, n.id = row.id, n.vfrom = toInteger($view.ver), n.vto = 9007199254740991
  RETURN count(row) AS ports
}
CALL () {
  UNWIND $edges AS row
  CREATE (n:Edge)
  SET n = row.props, n.branch_id = $view.line, n.id = row.id, n.vfrom = toInteger($view.ver), n.vto = 9007199254740991
  RETURN count(row) AS edges
}
CALL () {
  UNWIND $findings AS row
  CREATE (n:GFinding)
  SET n = row.props, n.branch_id = $view.line, n.id = row.id, n.vfrom = toInteger($view.ver), n.vto = 9007199254740991
  RETURN count(row) AS findings
}
RETURN nodes, ports, edges, findings
