MATCH (b:Branch {project_id: $projectId, is_main: true})
  WHERE b.deleted_at IS NULL
SET b.lock_seq = coalesce(b.lock_seq, 0) + 1
RETURN b {.*} AS branch
