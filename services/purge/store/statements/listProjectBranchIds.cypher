MATCH (b:Branch {project_id: $projectId})
  WHERE b.owner_id IS NOT NULL
RETURN b.id AS id
