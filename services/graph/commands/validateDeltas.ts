/**
 * POST /v1/branches/{id}/validate (validateDeltas): the apply pipeline in a transaction that is
 * always rolled back, then the findings of the graph that would result. The same parser and
 * BatchApplier as apply, so a dry run accepts and refuses exactly what apply would. No scope
 * needed. A discarded branch has no graph left: 409 branch_not_active. It takes the branch's write
 * lock as apply does, so it never deadlocks with a write; the transaction is bounded by
 * NEO4J_TX_TIMEOUT_MS and retried on transient failures.
 */
import { ConflictError } from '../../../shared/errors/domainErrors';
import type { Principal } from '../../../shared/http/principal';
import type { ServiceContext } from '../../../shared/http/serviceContext';
import { visibleBranch } from '../../branches';
import type { BranchRecord } from '../../branches';
import { BatchApplier } from '../deltas/batchApplier';
import { grown, requireWithinQuota, usageOf } from '../branchUsage';
import { parseDeltaBatch } from '../deltas/parseDeltas';
import { recordBatchText } from '../deltas/wireDelta';
import type { Finding } from '../findings';
import { findingsOf } from '../findingLists';
import { refreshFindings } from '../findingRecords';
import { branchView, writeViewOf } from '../view';

export interface ValidateResult {
  branch: BranchRecord;
  /** At most limits.maxFindings, the first in order. */
  findings: Finding[];
  /** Whether findings were left out of `findings`. */
  truncated: boolean;
  valid: boolean;
}

export async function validateDeltas(
  ctx: ServiceContext,
  principal: Principal,
  branchId: string,
  body: unknown,
): Promise<ValidateResult> {
  return ctx.executor.rolledBackTx(async (tx) => {
    // the lock apply takes first: a dry run queues behind (or ahead of) a write on
    // this branch instead of locking its nodes in another order and deadlocking
    const { branch } = await visibleBranch(tx, principal, branchId, { lock: true });
    if (branch.status === 'discarded') {
      // no graph left to validate against, and apply would refuse it too
      throw new ConflictError('branch_not_active', 'the branch is discarded');
    }
    const batch = parseDeltaBatch(body ?? {}, {
      maxDeltas: ctx.config.limits.maxDeltasPerBatch,
      requireVersion: false,
    });
    // the same limits as apply: batch size, nesting depth, quotas
    const recorded =
      batch.deltas.length > 0
        ? recordBatchText(batch.deltas, ctx.config.limits.maxBatchBytes).bytes
        : 0;
    const before = await usageOf(tx, branch);
    // the batch as apply would write it: the branch's next version, never published here
    const view = writeViewOf(branchView(branch, branch.main_id, branch.version));
    const applier = new BatchApplier(tx, view, { maxDepth: ctx.config.limits.maxNestingDepth });
    await applier.applyAll(batch.deltas);
    requireWithinQuota(ctx.config.quotas, before, grown(before, applier.usage, recorded));
    await refreshFindings(tx, view);
    return { branch, ...(await findingsOf(tx, view, ctx.config.limits.maxFindings)) };
  });
}
