MATCH (b:Branch {project_id: $projectId, owner_id: $ownerId})
  WHERE b.is_main = false AND b.status = 'active' AND b.deleted_at IS NULL
RETURN count(b) AS total
