MATCH (b:Branch {id: $branchId})
RETURN b.status AS status, b.deleted_at IS NOT NULL AS deleted
