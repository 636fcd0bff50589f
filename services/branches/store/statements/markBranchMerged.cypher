MATCH (b:Branch {id: $id})
SET b.status = 'merged', b.last_active_at = $now, b.merged_at = $now
RETURN b {.*} AS branch
