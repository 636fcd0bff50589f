MATCH (b:Branch {status: 'discarded'})
  WHERE b.purged_at IS NULL AND b.deleted_at IS NULL
RETURN b.id AS id
  LIMIT toInteger($limit)
