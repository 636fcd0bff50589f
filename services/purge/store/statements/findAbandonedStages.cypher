MATCH (s:VStage)
  WHERE CASE WHEN s.lease_until IS NULL THEN s.started_at < $before ELSE s.lease_until < $now END
RETURN s.line AS line
  LIMIT toInteger($limit)
