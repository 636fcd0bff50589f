MATCH (x:Touch {branch_id: $branchId})
  WHERE x.key IS NOT NULL AND x.version IS NOT NULL
CALL (x) {
  DETACH DELETE x
} IN TRANSACTIONS OF 1000 ROWS
RETURN count(*) AS deleted
