CYPHER replan=skip
CALL () {
  CALL () {
    UNWIND $nodes AS open
    MATCH (cur:GNode {branch_id: $view.line, id: open.id})
      USING INDEX SEEK cur:GNode(branch_id, id)
      WHERE cur.vto = 9007199254740991
    SET cur.vto = toInteger($view.ver)
  }
  UNWIND $nodes AS row
  CREATE (n:GNode)
  SET n = row.props, n.branch_id = $view.line, n.id = row.id, n.vfrom = toInteger($view.ver), n.vto = 9007199254740991
  RETURN count(row) AS nodes
}
CALL () {
  CALL () {
    UNWIND $ports AS open
    MATCH (cur:Port {branch_id: $view.line, id: open.id})
      USING INDEX SEEK cur:Port(branch_id, id)
      WHERE cur.vto = 9007199254740991
    SET cur.vto = toInteger($view.ver)
  }
  UNWIND $ports AS row
  CREATE (n:Port)
  SET n = row.props, n.branch_id = $view.line, n.id = row.id, n.vfrom = toInteger($view.ver), n.vto = 9007199254740991
  RETURN count(row) AS ports
}
CALL () {
  CALL () {
    UNWIND $edges AS open
    MATCH (cur:Edge {branch_id: $view.line, id: open.id})
      USING INDEX SEEK cur:Edge(branch_id, id)
      WHERE cur.vto = 9007199254740991
    SET cur.vto = toInteger($view.ver)
  }
  UNWIND $edges AS row
  CREATE (n:Edge)
  SET n = row.props, n.branch_id = $view.line, n.id = row.id, n.vfrom = toInteger($view.ver), n.vto = 9007199254740991
  RETURN count(row) AS edges
}
RETURN nodes, ports, edges
