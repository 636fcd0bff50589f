/**
 * Maps merge, preview, rebase, diff and trail results to MergeResponse,
 * MergePreviewResponse, RebaseResponse, DiffResponse and StructuralChange, field by field.
 */
import type { components } from '../../shared/api/openapi.generated';
import { presentBranch, presentBranchRef } from '../branches';
import type { BranchDiff } from './commands/diffBranch';
import type { ChangeRecord } from '../graph';
import type { MergeResult } from './commands/mergeBranch';
import type { MergePreview } from './commands/previewMerge';
import type { RebaseResult } from './commands/rebaseBranch';
import { parseRecordedDeltas, toWireDelta } from '../graph';

type Schemas = components['schemas'];

export function presentMerge(result: MergeResult, version: string): Schemas['MergeResponse'] {
  return {
    branch: presentBranch(result.branch),
    main_branch: presentBranchRef(result.main),
    mode: result.mode,
    project_id: result.branch.project_id,
    version,
  };
}

export function presentRebase(result: RebaseResult, version: string): Schemas['RebaseResponse'] {
  return {
    rebased: result.rebased,
    dry_run: result.dryRun,
    can_rebase: result.canRebase,
    branch: presentBranch(result.branch),
    main_branch: presentBranchRef(result.main),
    previous_base_main_version: result.previousBase,
    resolutions: result.resolutions,
    counts: result.counts,
    findings_added: result.findingsAdded,
    findings_cleared: result.findingsCleared,
    findings_truncated: result.findingsTruncated,
    project_id: result.branch.project_id,
    version,
  };
}

export function presentPreview(
  preview: MergePreview,
  version: string,
): Schemas['MergePreviewResponse'] {
  return {
    branch: presentBranchRef(preview.branch),
    main_branch: presentBranchRef(preview.main),
    mode: preview.mode,
    can_merge: preview.canMerge,
    conflicts: preview.conflicts,
    counts: preview.counts,
    findings_added: preview.findingsAdded,
    findings_cleared: preview.findingsCleared,
    findings_truncated: preview.findingsTruncated,
    rules: preview.rules,
    project_id: preview.branch.project_id,
    version,
  };
}

export function presentDiff(result: BranchDiff, version: string): Schemas['DiffResponse'] {
  return {
    branch: presentBranchRef(result.branch),
    main_branch: presentBranchRef(result.main),
    nodes: result.diff.node,
    ports: result.diff.port,
    edges: result.diff.edge,
    project_id: result.branch.project_id,
    version,
  };
}

/**
 * One entry of a trail. Deltas are shown after parse-time normalisation (graph/deltas/wireDelta.ts):
 * the wire shape the batch was applied with, empty strings of nullable fields already null.
 * A merge is shown by its summary (merged_trail), never by the merged deltas, which the
 * merged branch's own trail keeps.
 */
export function presentChange(change: ChangeRecord): Schemas['StructuralChange'] {
  const kind = change.kind ?? 'batch';
  const merge = kind === 'merge';
  return {
    version: change.version,
    actor: change.actor_id,
    created_at: change.created_at,
    deltas: merge ? [] : parseRecordedDeltas(change.deltas).map(toWireDelta),
    idempotency_key: change.idempotency_key ?? null,
    kind,
    merged_branch_id: merge ? (change.merged_branch_id ?? null) : null,
    mode: merge ? (change.mode ?? null) : null,
    ...(merge &&
      typeof change.merged_batches === 'number' && {
        merged_trail: {
          changes: change.merged_batches,
          from_version: change.merged_from_version ?? 0,
          to_version: change.merged_to_version ?? 0,
        },
      }),
    ...(kind === 'revert' &&
      typeof change.reverted_version === 'number' && { reverted_version: change.reverted_version }),
    ...(kind === 'rebase' && {
      rebase: {
        base_main_version: change.rebase_base ?? 0,
        previous_base_main_version: change.rebase_previous_base ?? 0,
        resolutions: JSON.parse(
          change.rebase_resolutions ?? '[]',
        ) as Schemas['ConflictResolution'][],
      },
    }),
  };
}
