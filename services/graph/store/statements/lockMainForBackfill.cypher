MATCH (b:Branch {id: $mainId})
SET b.lock_seq = coalesce(b.lock_seq, 0) + 1
RETURN b.id AS id
