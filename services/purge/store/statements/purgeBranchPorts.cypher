MATCH (x:Port {branch_id: $branchId})
  USING INDEX SEEK x:Port(branch_id, vfrom)
  WHERE x.vfrom IS NOT NULL
CALL (x) {
  DETACH DELETE x
} IN TRANSACTIONS OF 1000 ROWS
RETURN count(*) AS deleted
