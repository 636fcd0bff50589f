MATCH (c:Change)
  WHERE c.touched IS NULL AND coalesce(c.kind, 'batch') IN $kinds
RETURN c.branch_id AS branchId, c.version AS version, c.deltas AS deltas
  LIMIT toInteger($limit)
