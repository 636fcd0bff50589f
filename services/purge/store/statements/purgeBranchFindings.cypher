MATCH (x:GFinding {branch_id: $branchId})
  USING INDEX SEEK x:GFinding(branch_id, vfrom)
  WHERE x.vfrom IS NOT NULL
CALL (x) {
  DETACH DELETE x
} IN TRANSACTIONS OF 1000 ROWS
RETURN count(*) AS deleted
