MATCH (b:Branch {id: $id})
  WHERE b.deleted_at IS NULL
SET b.lock_seq = coalesce(b.lock_seq, 0) + 1
WITH b
OPTIONAL MATCH (p:Project {id: b.project_id})
  WHERE p.deleted_at IS NULL
OPTIONAL MATCH (:User {id: $userId})-[m:MEMBER_OF]->(p)
RETURN b {.*} AS branch, p {.*} AS project, m.role AS role
