MATCH (c:Change {branch_id: $branchId})
RETURN c.version AS version, CASE WHEN c.kind = 'merge' THEN 0 ELSE coalesce(c.deltas_bytes, size(coalesce(c.deltas, ''))) END AS bytes
  ORDER BY c.version DESC
  SKIP toInteger($offset)
  LIMIT toInteger($limit) + 1
