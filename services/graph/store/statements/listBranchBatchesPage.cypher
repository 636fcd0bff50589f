MATCH (c:Change {branch_id: $branchId})
  WHERE c.version > $afterVersion AND coalesce(c.kind, 'batch') IN ['batch', 'revert', 'rebase']
RETURN c.version AS version, c.deltas AS deltas
  ORDER BY c.version ASC
  LIMIT toInteger($limit)
