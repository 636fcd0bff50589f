MATCH (p:Project {id: $projectId})
  WHERE p.deleted_at IS NOT NULL
DETACH DELETE p
RETURN count(*) AS deleted
