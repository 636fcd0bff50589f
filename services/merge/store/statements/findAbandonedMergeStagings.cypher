MATCH (b:Branch)
  WHERE b.is_main = true AND b.stage_id IS NOT NULL AND b.stage_until < $before
RETURN b.id AS mainId, b.stage_id AS stageId, b.stage_version AS version
  LIMIT toInteger($limit)
