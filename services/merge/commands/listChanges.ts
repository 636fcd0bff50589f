/**
 * GET /v1/branches/{id}/changes (issue 5 §5): one page of a branch's
 * structural_changes trail, newest first, paged like the decisions list (§4.17:
 * limit 1-200, offset, has_more). Any visible branch: main (its merges), working
 * branches of the caller, discarded and merged ones too (their trail is kept).
 */
import type { Principal } from '../../../shared/http/principal';
import type { ServiceContext } from '../../../shared/http/serviceContext';
import { visibleBranch } from '../../branches/branchAccess';
import type { BranchRecord } from '../../branches/branchRecord';
import { listChangesPage } from '../store/mergeQueries';

/** A Change node as stored (graph/store/changeQueries.ts, store/mergeQueries.ts). */
export interface ChangeRecord {
  version: number;
  actor_id: string;
  created_at: string;
  /** JSON text of the deltas. */
  deltas: string | null;
  idempotency_key: string | null;
  kind: 'batch' | 'merge' | null;
  merged_branch_id: string | null;
  mode: 'fast_forward' | 'replay' | null;
}

export interface ChangePage {
  branch: BranchRecord;
  changes: ChangeRecord[];
  hasMore: boolean;
}

export async function listChanges(
  ctx: ServiceContext,
  principal: Principal,
  branchId: string,
  page: { limit: number; offset: number },
): Promise<ChangePage> {
  return ctx.executor.readTx(async (tx) => {
    const { branch } = await visibleBranch(tx, principal, branchId);
    const rows = await tx.run<{ change: ChangeRecord }>(listChangesPage, {
      branchId: branch.id,
      offset: page.offset,
      limit: page.limit,
    });
    return {
      branch,
      changes: rows.slice(0, page.limit).map((r) => r.change),
      hasMore: rows.length > page.limit,
    };
  });
}
