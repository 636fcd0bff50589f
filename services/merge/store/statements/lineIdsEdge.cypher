MATCH (s:Edge {branch_id: $line})
  WHERE s.id > $after
WITH DISTINCT s.id AS id
  ORDER BY id
  LIMIT toInteger($limit)
RETURN id
