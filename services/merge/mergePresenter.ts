/** Maps merge, preview and diff results to MergeResponse, MergePreviewResponse, DiffResponse. */
import type { components } from '../../shared/api/openapi.generated';
import { presentBranch, presentBranchRef } from '../branches/branchPresenter';
import type { BranchDiff } from './commands/diffBranch';
import type { MergeResult } from './commands/mergeBranch';
import type { MergePreview } from './commands/previewMerge';

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

export function presentPreview(
  preview: MergePreview,
  version: string,
): Schemas['MergePreviewResponse'] {
  return {
    branch: presentBranchRef(preview.branch),
    main_branch: presentBranchRef(preview.main),
    mode: preview.mode,
    can_merge: preview.conflicts.length === 0,
    conflicts: preview.conflicts,
    counts: preview.counts,
    findings_added: preview.findingsAdded,
    findings_cleared: preview.findingsCleared,
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
