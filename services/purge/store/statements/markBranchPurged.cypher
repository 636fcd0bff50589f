MATCH (b:Branch {id: $branchId})
SET b.purged_at = coalesce(b.purged_at, $now)
RETURN b.id AS id
