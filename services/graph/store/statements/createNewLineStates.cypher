CYPHER replan=skip
CALL () {
  UNWIND $nodes AS row
  WITH row.id AS id, row.props AS props
  CREATE (n:GNode)
  SET n = props {.*, branch_id: $view.line, id: id, vfrom: toInteger($view.ver), vto: 9007199254740991}
  RETURN count(*) AS nodes
}
CALL () {
  UNWIND $ports AS row
  WITH row.id AS id, row.props AS props
  CREATE (n:Port)
  SET n = props {.*, branch_id: $view.line, id: id, vfrom: toInteger($view.ver), vto: 9007199254740991}
  RETURN count(*) AS ports
}
CALL () {
  UNWIND $edges AS row
  WITH row.id AS id, row.props AS props
  CREATE (n:Edge)
  SET n = props {.*, branch_id: $view.line, id: id, vfrom: toInteger($view.ver), vto: 9007199254740991}
  RETURN count(*) AS edges
}
CALL () {
  UNWIND $findings AS row
  WITH row.id AS id, row.props AS props
  CREATE (n:GFinding)
  SET n = props {.*, branch_id: $view.line, id: id, vfrom: toInteger($view.ver), vto: 9007199254740991}
  RETURN count(*) AS findings
}
RETURN nodes, ports, edges, findings
