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
  WITH row.id AS id, row.props AS props
  CREATE (n:GNode)
  SET n = props {.*, branch_id: $view.line, id: id, vfrom: toInteger($view.ver), vto: 9007199254740991}
  RETURN count(*) AS nodes
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
  WITH row.id AS id, row.props AS props
  CREATE (n:Port)
  SET n = props {.*, branch_id: $view.line, id: id, vfrom: toInteger($view.ver), vto: 9007199254740991}
  RETURN count(*) AS ports
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
  WITH row.id AS id, row.props AS props
  CREATE (n:Edge)
  SET n = props {.*, branch_id: $view.line, id: id, vfrom: toInteger($view.ver), vto: 9007199254740991}
  RETURN count(*) AS edges
}
RETURN nodes, ports, edges
