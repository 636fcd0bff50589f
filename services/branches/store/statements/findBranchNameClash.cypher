MATCH (b:Branch {project_id: $projectId, owner_id: $ownerId})
  WHERE b.is_main = false AND b.status = 'active' AND b.deleted_at IS NULL AND b.name_lower = $nameLower AND b.id <> $excludeId
RETURN b.id AS id
  LIMIT 1
