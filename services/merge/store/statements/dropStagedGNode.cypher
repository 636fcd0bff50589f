MATCH (s:GNode)
  USING INDEX SEEK s:GNode(branch_id, vfrom)
  WHERE s.branch_id = $line AND s.vfrom = $version
CALL (s) {
  DELETE s
} IN TRANSACTIONS OF 1000 ROWS
