MATCH (b:Branch {project_id: $projectId, is_main: true})
  WHERE b.deleted_at IS NULL
RETURN b {.*} AS branch
