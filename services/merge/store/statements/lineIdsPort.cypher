MATCH (s:Port {branch_id: $line})
  USING INDEX SEEK s:Port(branch_id, id)
  WHERE s.id > $after
WITH DISTINCT s.id AS id
  ORDER BY id
  LIMIT toInteger($limit)
RETURN id
