MATCH (b:Branch {id: $id})
SET b.status = 'discarded', b.last_active_at = $now, b.discarded_at = $now
RETURN b {.*} AS branch
