MATCH (x:ChangeRequest {project_id: $projectId})
  WHERE x.state IS NOT NULL AND x.created_at IS NOT NULL
CALL (x) {
  DETACH DELETE x
} IN TRANSACTIONS OF 1000 ROWS
RETURN count(*) AS deleted
