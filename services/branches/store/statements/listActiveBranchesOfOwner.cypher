MATCH (b:Branch {project_id: $projectId, owner_id: $ownerId})
  WHERE b.is_main = false AND b.status = 'active' AND b.deleted_at IS NULL
RETURN b {.*} AS branch
  ORDER BY b.created_at ASC, b.id ASC
