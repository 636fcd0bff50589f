/**
 * POST /v1/branches/{id}/validate (validateDeltas): the apply pipeline in a transaction that is
 * always rolled back, then the findings of the graph that would result. The same parser and
 * BatchApplier as apply, so a dry run accepts and refuses exactly what apply would. No scope
 * needed. A discarded branch has no graph left: 409 branch_not_active. The transaction is
 * bounded by NEO4J_TX_TIMEOUT_MS and retried on transient failures.
 *
 * Locks: a dry run must never let a caller who cannot write make a writer wait.
 * - On main (merge-only: no batch is ever applied to it) the batch is written on a fork of
 *   main made inside the transaction (dryRunFork): main is read at its version, a snapshot
 *   without a lock, and neither main's lock nor any of main's records is taken. The graph
 *   that results and its findings are the same: a fork reads main beneath its own records.
 * - On a working branch, a caller who could apply the batch (couldWrite) takes the
 *   branch's write lock first, as apply does, so its dry run queues behind (or ahead of)
 *   a write instead of locking records in another order and deadlocking; any other caller
 *   (the owner's key without graph:write, an owner who is now a viewer) takes no branch
 *   lock: its dry run reads the branch as it is and locks only the branch's own records it
 *   rewrites, for as long as the dry run runs (a deadlock with a write is retried).
 */
import { ConflictError } from '../../../shared/errors/domainErrors';
import type { Principal } from '../../../shared/http/principal';
import type { ServiceContext } from '../../../shared/http/serviceContext';
import { nowTimestamp } from '../../../shared/http/timestamps';
import type { QueryRunner } from '../../../shared/neo4j/namedQuery';
import { couldWrite, dryRunFork, visibleBranch } from '../../branches';
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
    const branch = await dryRunBranch(tx, principal, branchId);
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
    // the batch as apply would write it: the next version of the line written (main's
    // dry-run fork on main), never published here
    const line = branch.is_main
      ? await dryRunFork(tx, branch, principal.userId, nowTimestamp())
      : branch;
    const view = writeViewOf(branchView(line, branch.main_id, line.version));
    const applier = new BatchApplier(tx, view, { maxDepth: ctx.config.limits.maxNestingDepth });
    await applier.applyAll(batch.deltas);
    requireWithinQuota(ctx.config.quotas, before, grown(before, applier.usage, recorded));
    await refreshFindings(tx, view);
    return { branch, ...(await findingsOf(tx, view, ctx.config.limits.maxFindings)) };
  });
}

/** The branch validated, under its write lock only for a caller who could write it. */
async function dryRunBranch(
  tx: QueryRunner,
  principal: Principal,
  branchId: string,
): Promise<BranchRecord> {
  const grant = await visibleBranch(tx, principal, branchId);
  if (!couldWrite(principal, grant)) return grant.branch;
  // the lock apply takes first, then the branch as it is under it
  return (await visibleBranch(tx, principal, branchId, { lock: true })).branch;
}
