CALL () {
  MATCH (s:Port)
    USING INDEX SEEK s:Port(branch_id, vfrom)
    WHERE s.branch_id = $line AND s.vfrom > $from AND s.vfrom <= $to
  RETURN s.id AS id
  UNION
  MATCH (s:Port)
    USING INDEX SEEK s:Port(branch_id, vto)
    WHERE s.branch_id = $line AND s.vto > $from AND s.vto <= $to
  RETURN s.id AS id
}
RETURN id
