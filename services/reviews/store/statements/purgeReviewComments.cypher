MATCH (c:ChangeRequest {project_id: $projectId})
  WHERE c.state IS NOT NULL AND c.created_at IS NOT NULL
MATCH (x:ReviewComment {change_request_id: c.id})
  WHERE x.ord IS NOT NULL
CALL (x) {
  DETACH DELETE x
} IN TRANSACTIONS OF 1000 ROWS
RETURN count(*) AS deleted
