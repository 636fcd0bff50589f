MATCH (b:Branch {id: $id})
SET b.name = $name, b.name_lower = $nameLower, b.last_active_at = $now
RETURN b {.*} AS branch
