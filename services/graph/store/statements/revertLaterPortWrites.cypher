UNWIND $ids AS id
MATCH (s:Port {branch_id: $line, id: id})
  USING INDEX SEEK s:Port(branch_id, id)
  WHERE s.vfrom > toInteger($k)
RETURN id, min(s.vfrom) AS version
