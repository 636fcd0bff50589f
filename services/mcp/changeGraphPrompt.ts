/**
 * The prompt that shows an agent how to change a graph safely with the tools:
 * read only the scope it needs, build one batch, validate it, apply it with the
 * version it read, and on failure act on the error body (recovery_hint,
 * current_version) instead of guessing; on a merge conflict, rebase the branch onto
 * main with a resolution per conflict (previewed first) and merge then.
 */

export const CHANGE_GRAPH_PROMPT = {
  name: 'change_graph_safely',
  title: 'Change a graph safely',
  description:
    'Step-by-step procedure for changing a project graph: fork, read the scope, build one ' +
    'delta batch, validate, apply with expected_version, recover from errors, resolve merge ' +
    'conflicts by a previewed rebase, merge.',
  arguments: [
    { name: 'project_id', description: 'The project to change.', required: true },
    {
      name: 'goal',
      description: 'What the change should achieve, in plain words.',
      required: true,
    },
    {
      name: 'node_id',
      description: 'The node whose subtree the change is about (optional).',
      required: false,
    },
  ],
};

export function changeGraphMessages(args: Record<string, string | undefined>): {
  description: string;
  messages: { role: 'user'; content: { type: 'text'; text: string } }[];
} {
  const project = args.project_id ?? '<project_id>';
  const scope = args.node_id
    ? `get_subtree with branch_id, node_id ${args.node_id} and a small depth (raise it only while \`truncated\` is true)`
    : 'get_subtree (or get_neighborhood) on the nodes concerned; get_branch_graph only for a small graph';
  const text = `Goal: ${args.goal ?? '(not given)'}
Project: ${project}

Change the graph through a working branch, never by guessing state:

1. Fork: fork_branch with project_id ${project} and a short name. Keep the answer's branch id
   and its \`version\` (the branch version you will send as expected_version).
2. Read only the scope you need: ${scope}. Node and port ids are UUIDs; new ones are yours to mint.
3. Build ONE batch (the apply_deltas input schema lists the seven delta types). A batch is
   all or nothing: order deltas so parents come before children and nodes before wires.
4. Dry-run it: validate_deltas with the same deltas. \`valid\` false means findings of severity
   error; fix them first (warnings do not block).
5. Apply: apply_deltas with branch_id, deltas and expected_version = the version you read.
   The answer carries the new version; use it for the next batch.
6. When a call fails, its content is the API's error body. Read it, do not retry blindly:
   - 422 with detail.recovery_hint "regenerate_uuid": mint a new UUID at detail.field and retry;
     "drop_field": delete detail.field and retry; null: read detail.message and detail.delta_index
     (the offending delta) and fix that delta.
   - 409 version_conflict: someone changed the branch; read it again (detail.current_version),
     rebuild the batch against what is there now, and apply with the new version.
   - 404 node_not_found / edge_not_found: the delta names something that is not on the branch.
   - 403: the key lacks a scope or role (graph:write, editor); say so instead of retrying.
   - 429: wait Retry-After seconds.
   Repeating exactly the same apply_deltas call (for example after a lost answer) is safe: it
   returns the first answer and never applies twice.
7. Check the result: get_branch_diff (or get_subtree again), then get_merge_preview.
8. On conflicts (the preview's \`conflicts\`, or merge_branch's 409 merge_conflict), resolve them
   in graph terms by rebasing the branch onto main:
   a. Read each conflict: reason, entity_kind, entity_id, fields, branch_change and main_change.
   b. Choose one resolution per conflict (per field of a modified_on_both conflict), naming it
      with reason, entity_kind, entity_id and field as the preview shows them, and choice
      "main" (main's side), "branch" (yours) or "value" with a value (a field's new value, a
      new name for name_collision, a parent id for reparent_conflict, the wire id that stays
      for rewired_on_both, "keep" or "drop" for the delete conflicts).
   c. Preview them: rebase_branch with branch_id, expected_version, resolutions and
      dry_run true. 409 merge_conflict lists the conflicts still unresolved; 422
      unknown_conflict / invalid_resolution names the resolution (detail.resolution_index) to
      fix. Check counts and findings_added.
   d. Rebase: the same rebase_branch call without dry_run. The answer's branch.version is the
      version to merge with; its base_main_version is main's version.
9. Merge: merge_branch with branch_id and expected_version = the branch's current version.`;
  return {
    description: CHANGE_GRAPH_PROMPT.description,
    messages: [{ role: 'user', content: { type: 'text', text } }],
  };
}
