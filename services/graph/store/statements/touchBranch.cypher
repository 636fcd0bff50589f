MATCH (b:Branch {id: $branchId})
SET b.last_active_at = $now
RETURN b.version AS version
