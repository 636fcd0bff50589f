MATCH (x:FeedEvent {project_id: $projectId})
  WHERE x.seq IS NOT NULL
CALL (x) {
  DETACH DELETE x
} IN TRANSACTIONS OF 1000 ROWS
RETURN count(*) AS deleted
