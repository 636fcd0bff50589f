MATCH (c:Change {branch_id: $line, version: 0})
  WHERE c.kind = 'import' AND c.touches_derived = true
UNWIND $ids AS nodeId
MATCH (n:GNode {branch_id: $line, id: nodeId})
  USING INDEX n:GNode(branch_id, id)
  WHERE n.vfrom = 0 AND n.gone IS NULL
  AND NOT EXISTS {
    MATCH (t:Touch {branch_id: $line, key: nodeId, version: 0})
      USING INDEX t:Touch(branch_id, key, version)
  }
CALL (n) {
  OPTIONAL MATCH (p:Port {branch_id: $line, node_id: n.id})
    USING INDEX p:Port(branch_id, node_id)
    WHERE p.vfrom = 0 AND p.gone IS NULL
  RETURN collect(p {.id, .channel, .ord}) AS ports
}
CALL (ports) {
  UNWIND [p IN ports | p.id] AS port
  CALL (port) {
    MATCH (e:Edge {branch_id: $line, source_handle: port})
      USING INDEX e:Edge(branch_id, source_handle)
      WHERE e.vfrom = 0 AND e.gone IS NULL
    RETURN e.id AS wire
    UNION
    MATCH (e:Edge {branch_id: $line, target_handle: port})
      USING INDEX e:Edge(branch_id, target_handle)
      WHERE e.vfrom = 0 AND e.gone IS NULL
    RETURN e.id AS wire
  }
  RETURN collect(DISTINCT wire) AS wires
}
RETURN n.id AS id, [k IN keys(n) WHERE n[k] IS NOT NULL] AS stored, ports, wires
