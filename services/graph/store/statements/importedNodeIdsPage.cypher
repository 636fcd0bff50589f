OPTIONAL MATCH (c:Change {branch_id: $line, version: 0})
  WHERE c.kind = 'import' AND c.touches_derived = true
CALL (c) {
  MATCH (n:GNode {branch_id: CASE WHEN c IS NOT NULL THEN $line END})
    USING INDEX n:GNode(branch_id, id)
    WHERE n.id > $after AND n.vfrom = 0
  WITH n.id AS id
    ORDER BY id
    LIMIT toInteger($limit)
  RETURN collect(id) AS ids
}
RETURN c IS NOT NULL AS marked, ids
