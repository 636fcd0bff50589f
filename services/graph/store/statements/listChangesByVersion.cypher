UNWIND $versions AS v
MATCH (c:Change {branch_id: $branchId, version: v})
RETURN c {.version, .kind, .actor_id, .created_at, .idempotency_key, deltas: CASE WHEN c.kind = 'merge' THEN null ELSE c.deltas END, .merged_branch_id, .mode, .reverted_version, .merged_batches, .merged_from_version, .merged_to_version, .rebase_base,
          .rebase_previous_base, .rebase_resolutions} AS change
  ORDER BY c.version DESC
