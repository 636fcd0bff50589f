MATCH (p:Project)
  WHERE p.deleted_at IS NOT NULL
RETURN p.id AS id
  ORDER BY p.deleted_at ASC
  LIMIT toInteger($limit)
