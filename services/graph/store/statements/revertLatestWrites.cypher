UNWIND $entities AS e
CALL (e) {
  OPTIONAL MATCH (s:GNode {branch_id: $line, id: e.id})
    USING INDEX SEEK s:GNode(branch_id, id)
    WHERE e.kind = 'node' AND s.vfrom < toInteger($below)
  RETURN max(s.vfrom) AS v
  UNION ALL
  OPTIONAL MATCH (s:Port {branch_id: $line, id: e.id})
    USING INDEX SEEK s:Port(branch_id, id)
    WHERE e.kind = 'port' AND s.vfrom < toInteger($below)
  RETURN max(s.vfrom) AS v
  UNION ALL
  OPTIONAL MATCH (s:Edge {branch_id: $line, id: e.id})
    USING INDEX SEEK s:Edge(branch_id, id)
    WHERE e.kind = 'edge' AND s.vfrom < toInteger($below)
  RETURN max(s.vfrom) AS v
}
RETURN e.kind AS kind, e.id AS id, max(v) AS version
