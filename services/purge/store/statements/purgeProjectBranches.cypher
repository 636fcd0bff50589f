MATCH (x:Branch {project_id: $projectId})
  WHERE x.owner_id IS NOT NULL
CALL (x) {
  DETACH DELETE x
} IN TRANSACTIONS OF 1000 ROWS
RETURN count(*) AS deleted
