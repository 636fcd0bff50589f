MATCH (p:Project {id: $projectId})
RETURN p.deleted_at IS NOT NULL AS deleted
