MATCH (b:Branch {id: $mainId})
SET b.version = b.version + 1, b.last_active_at = $now
RETURN b {.*} AS branch
