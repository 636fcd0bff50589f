UNWIND $changes AS at
MATCH (c:Change {branch_id: at.line, version: at.version})
RETURN c {.branch_id, .version, .kind, .actor_id, .created_at, .merged_branch_id, .mode, .reverted_version} AS change
