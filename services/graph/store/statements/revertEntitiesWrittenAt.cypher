CALL () {
  MATCH (s:GNode {branch_id: $line})
    USING INDEX SEEK s:GNode(branch_id, vfrom)
    WHERE s.vfrom = toInteger($k)
  RETURN 'GNode' AS label, s.id AS id
  UNION
  MATCH (s:GNode {branch_id: $line})
    USING INDEX SEEK s:GNode(branch_id, vto)
    WHERE s.vto = toInteger($k)
  RETURN 'GNode' AS label, s.id AS id
  UNION
  MATCH (s:Port {branch_id: $line})
    USING INDEX SEEK s:Port(branch_id, vfrom)
    WHERE s.vfrom = toInteger($k)
  RETURN 'Port' AS label, s.id AS id
  UNION
  MATCH (s:Port {branch_id: $line})
    USING INDEX SEEK s:Port(branch_id, vto)
    WHERE s.vto = toInteger($k)
  RETURN 'Port' AS label, s.id AS id
  UNION
  MATCH (s:Edge {branch_id: $line})
    USING INDEX SEEK s:Edge(branch_id, vfrom)
    WHERE s.vfrom = toInteger($k)
  RETURN 'Edge' AS label, s.id AS id
  UNION
  MATCH (s:Edge {branch_id: $line})
    USING INDEX SEEK s:Edge(branch_id, vto)
    WHERE s.vto = toInteger($k)
  RETURN 'Edge' AS label, s.id AS id
}
RETURN label, id
