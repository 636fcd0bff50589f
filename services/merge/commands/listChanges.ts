/**
 * GET /v1/branches/{id}/changes (listBranchChanges): one page of a branch's structural_changes
 * trail, newest first, paged like the decisions list (limit 1-200, offset, has_more). Any visible
 * branch: main (its merges), working branches of the caller, discarded and merged ones too (their
 * trail is kept).
 *
 * A page also stops at pageBytes() of recorded deltas (always holding at least one
 * change), so its memory is bounded whatever the records weigh: the sizes are read
 * first, then only the records that fit. Such a page is shorter than `limit` with
 * has_more true; the next page starts at offset + the number returned.
 */
import type { Principal } from '../../../shared/http/principal';
import type { ServiceContext } from '../../../shared/http/serviceContext';
import { visibleBranch } from '../../branches';
import type { BranchRecord } from '../../branches';
import { listChangeSizes, listChangesByVersion } from '../store/mergeQueries';

/**
 * Recorded delta bytes one page of the trail holds at most (beyond its first
 * change): four batches of the largest size, 8 MiB by default.
 */
export function pageBytes(maxBatchBytes: number): number {
  return 4 * maxBatchBytes;
}

/** A Change node as stored (graph/store/changeQueries.ts, store/mergeQueries.ts). */
export interface ChangeRecord {
  version: number;
  actor_id: string;
  created_at: string;
  /** JSON text of the deltas. */
  deltas: string | null;
  idempotency_key: string | null;
  kind: 'batch' | 'merge' | 'revert' | null;
  merged_branch_id: string | null;
  mode: 'fast_forward' | 'replay' | null;
  /** The version whose batch a revert undid (kind `revert`). */
  reverted_version?: number | null;
}

export interface ChangePage {
  branch: BranchRecord;
  changes: ChangeRecord[];
  hasMore: boolean;
}

/** How many of the sized rows (newest first) fit in the budget; at least one. */
export function fitting(sizes: number[], budget: number): number {
  let total = 0;
  let taken = 0;
  for (const bytes of sizes) {
    if (taken > 0 && total + bytes > budget) break;
    total += bytes;
    taken += 1;
  }
  return taken;
}

export async function listChanges(
  ctx: ServiceContext,
  principal: Principal,
  branchId: string,
  page: { limit: number; offset: number },
): Promise<ChangePage> {
  return ctx.executor.readTx(async (tx) => {
    const { branch } = await visibleBranch(tx, principal, branchId);
    const sized = await tx.run<{ version: number; bytes: number }>(listChangeSizes, {
      branchId: branch.id,
      offset: page.offset,
      limit: page.limit,
    });
    const wanted = sized.slice(0, page.limit);
    const taken = fitting(
      wanted.map((r) => r.bytes),
      pageBytes(ctx.config.limits.maxBatchBytes),
    );
    const rows = await tx.run<{ change: ChangeRecord }>(listChangesByVersion, {
      branchId: branch.id,
      versions: wanted.slice(0, taken).map((r) => r.version),
    });
    return {
      branch,
      changes: rows.map((r) => r.change),
      hasMore: sized.length > taken,
    };
  });
}
