MATCH (b:Branch)
  WHERE b.is_main = true AND b.findings_from IS NULL AND b.deleted_at IS NULL
RETURN b.id AS id, b.version AS version
  LIMIT toInteger($limit)
