MATCH (s:Port)
  USING INDEX SEEK s:Port(branch_id, vto)
  WHERE s.branch_id = $line AND s.vto = $version
CALL (s) {
  SET s.vto = 9007199254740991
} IN TRANSACTIONS OF 1000 ROWS
