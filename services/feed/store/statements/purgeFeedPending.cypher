MATCH (x:FeedPending {project_id: $projectId})
CALL (x) {
  DETACH DELETE x
} IN TRANSACTIONS OF 1000 ROWS
RETURN count(*) AS deleted
