/**
 * DELETE /v1/branches/{id}?expected_version=N (discardBranch): discard a working branch. Owner only
 * (others: 404), with the editor role still held (403) and the project not archived (409
 * project_archived); the version is compared under the branch's write lock. The branch row and its
 * structural_changes stay; its nodes, ports and wires are removed in batches by a background job,
 * requested once the transaction has committed (a failed request is caught up by the worker's
 * sweep, services/purge). Its open change request is closed in the same transaction (onDiscard).
 */
import type { Principal } from '../../../shared/http/principal';
import type { ServiceContext } from '../../../shared/http/serviceContext';
import { nowTimestamp } from '../../../shared/http/timestamps';
import { ownedBranch, requireBranchChangeable, requireVersion } from '../branchAccess';
import type { BranchRecord } from '../branchRecord';
import type { DiscardHook } from '../discardHook';
import { markBranchDiscarded } from '../store/branchQueries';

export async function discardBranch(
  ctx: ServiceContext,
  principal: Principal,
  branchId: string,
  expectedVersion: number,
  onDiscard?: DiscardHook,
): Promise<BranchRecord> {
  const discarded = await ctx.executor.writeTx(async (tx) => {
    const { branch, ...grant } = await ownedBranch(tx, principal, branchId, { lock: true });
    requireBranchChangeable(principal, grant, branch);
    requireVersion(branch, expectedVersion);
    const now = nowTimestamp();
    const row = await tx.one<{ branch: BranchRecord }>(markBranchDiscarded, { id: branch.id, now });
    if (!row) throw new Error('branch vanished during discard');
    // its open change request is closed with it (the reviews service)
    await onDiscard?.(tx, { branch: row.branch, actorId: principal.userId, now });
    return row.branch;
  });
  await ctx.purges?.request({ kind: 'branch', branchId: discarded.id });
  return discarded;
}
