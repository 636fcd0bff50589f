MATCH (s:VStage {line: $line})
SET s.lock_seq = coalesce(s.lock_seq, 0) + 1
WITH s
  WHERE CASE WHEN s.lease_until IS NULL THEN s.started_at < $before ELSE s.lease_until < $now END
SET s.taken_at = $now, s.lease_until = $until
WITH s
CALL (s) {
  MATCH (l:VStageLane {line: s.line})
    USING INDEX l:VStageLane(line)
  SET l.lock_seq = coalesce(l.lock_seq, 0) + 1
}
RETURN EXISTS {
  MATCH (:Branch {id: s.line})
} AS published
