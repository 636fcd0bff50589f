MATCH (c:Change)
  WHERE c.idempotency_key IS NOT NULL AND c.created_at < $before
WITH c
  LIMIT toInteger($limit)
SET c.idempotency_key = null, c.idempotency_scope = null, c.idempotency_fingerprint = null
RETURN count(c) AS expired
