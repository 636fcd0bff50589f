MATCH (b:Branch {id: $mainId})
SET b.lock_seq = coalesce(b.lock_seq, 0) + 1
WITH b
  WHERE b.stage_id = $stageId AND b.stage_until < $before
SET b.stage_until = $until
RETURN b.version AS version
