/**
 * GET /v1/branches/{id}/changes (listBranchChanges): one page of a branch's structural_changes
 * trail, newest first, paged like the decisions list (limit 1-200, offset, has_more). Any visible
 * branch: main (its merges), working branches of the caller, discarded and merged ones too (their
 * trail is kept).
 *
 * A page also stops at graph's pageBytes() of recorded deltas (always holding at least
 * one change), so its memory is bounded whatever the records weigh: the sizes are read
 * first, then only the records that fit. Such a page is shorter than `limit` with
 * has_more true; the next page starts at offset + the number returned. A merge entry
 * is its bounded summary (graph/trail/changeRecord.ts), never the merged deltas.
 */
import type { Principal } from '../../../shared/http/principal';
import type { ServiceContext } from '../../../shared/http/serviceContext';
import { visibleBranch } from '../../branches';
import type { BranchRecord } from '../../branches';
import { readTrailPage } from '../../graph';
import type { ChangeRecord } from '../../graph';

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
    const read = await readTrailPage(tx, branch.id, page, ctx.config.limits.maxBatchBytes);
    return { branch, ...read };
  });
}
