MATCH (b:Branch {id: $id})
  WHERE b.deleted_at IS NULL
WITH b
OPTIONAL MATCH (p:Project {id: b.project_id})
  WHERE p.deleted_at IS NULL
OPTIONAL MATCH (:User {id: $userId})-[m:MEMBER_OF]->(p)
RETURN b {.*} AS branch, p {.*} AS project, m.role AS role
