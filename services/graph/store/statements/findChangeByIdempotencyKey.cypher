MATCH (c:Change {branch_id: $branchId, idempotency_key: $key})
  WHERE c.idempotency_scope = $scope AND c.created_at >= $since
RETURN c.version AS version, c.positions_applied AS positionsApplied, c.idempotency_fingerprint AS fingerprint, c.kind AS kind, c.reverted_version AS revertedVersion
  LIMIT 1
