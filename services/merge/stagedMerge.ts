/**
 * A merge that writes more than STAGE_RECORDS records is staged: its records are written
 * at main's next version in chunks, each its own transaction, so no transaction grows with
 * the change. No reader sees them (readers ask for main's published version, below the
 * staged one) until one small last transaction publishes the version by moving main's
 * version, records the merge and marks the branch merged (mergeBranch.ts).
 *
 * While staging, the merge holds a lease on main (stage_id, stage_until): another merge
 * into the same main answers 503 with Retry-After. Each chunk checks and extends the
 * lease under main's lock. A staging that fails (a conflict found while replaying, a
 * quota, an error) removes its records; one abandoned by a crash keeps its lease until it
 * runs out, and the worker's sweep (sweepMergeStagings) removes it.
 */
import { randomUUID } from 'node:crypto';
import { ServiceUnavailableError } from '../../shared/errors/domainErrors';
import type { Logger } from '../../shared/logging/logger';
import type { Executor } from '../../shared/neo4j/executor';
import type { QueryRunner } from '../../shared/neo4j/namedQuery';
import type { BranchRecord } from '../branches';
import type { ApplierLimits, View } from '../graph';
import { branchView, mainView, refreshFindings, writeViewOf } from '../graph';
import { batchPage } from './branchHistory';
import { fastForwardPage, STATE_LABELS } from './fastForward';
import type { MergeConflict } from './conflicts/conflictList';
import { mergeModeOf, MergeMode, placeAddedNodes, planReplay } from './mergeEngine';
import { replayBatches } from './replayBatches';
import { LINE_IDS } from './store/changeSetQueries';
import {
  ABORT_STAGING,
  clearLease,
  findAbandonedStagings,
  holdLease,
  openLease,
  takeOverLease,
} from './store/stagingQueries';

/** How long a staging's lease lasts without a chunk renewing it. */
export const STAGE_LEASE_MS = 60_000;

/** Main's Branch as read with its lease. */
export type LeasedBranch = BranchRecord & {
  stage_id?: string | null;
  stage_until?: number | null;
};

export interface Staging {
  stageId: string;
  main: BranchRecord;
  branch: BranchRecord;
  /** Main's write view: the staged version. */
  view: View;
}

/** 503 with Retry-After while a staging holds main. */
export function requireNoStaging(main: LeasedBranch, now = Date.now()): void {
  if (!main.stage_id) return;
  const left = Math.ceil(((main.stage_until ?? now) - now) / 1000);
  throw new ServiceUnavailableError(
    'a large merge into main is being written; retry when it is done',
    Math.min(Math.max(left, 1), Math.ceil(STAGE_LEASE_MS / 1000)),
  );
}

const COUNT_LINE = STATE_LABELS.map((label) => LINE_IDS[label]);

/** Whether the branch's line holds more than `limit` entities (what a merge writes). */
export async function exceedsStageLimit(
  tx: QueryRunner,
  branchId: string,
  limit: number,
): Promise<boolean> {
  let total = 0;
  for (const query of COUNT_LINE) {
    const rows = await tx.run<{ id: string }>(query, {
      line: branchId,
      after: '',
      limit: limit - total + 1,
    });
    total += rows.length;
    if (total > limit) return true;
  }
  return false;
}

/** Takes the lease on main (main's lock is held by the caller's transaction). */
export async function openStaging(
  tx: QueryRunner,
  main: BranchRecord,
  branch: BranchRecord,
): Promise<Staging> {
  const stageId = randomUUID();
  const view = writeViewOf(mainView(main.id, main.version));
  await tx.run(openLease, {
    mainId: main.id,
    stageId,
    until: Date.now() + STAGE_LEASE_MS,
    version: view.ver,
    branchId: branch.id,
  });
  return { stageId, main, branch, view };
}

/** Checks and extends the lease under main's lock; 503 when it was lost. */
export async function holdStaging(tx: QueryRunner, staging: Staging): Promise<LeasedBranch> {
  const row = await tx.one<{ branch: LeasedBranch }>(holdLease, {
    mainId: staging.main.id,
    stageId: staging.stageId,
    until: Date.now() + STAGE_LEASE_MS,
  });
  if (!row) throw new ServiceUnavailableError('the merge ran out of time while it was written', 1);
  return row.branch;
}

/** Ends the lease of a published staging (in the publishing transaction). */
export async function endStaging(tx: QueryRunner, staging: Staging): Promise<void> {
  await tx.run(clearLease, { mainId: staging.main.id, stageId: staging.stageId });
}

/**
 * Writes the merge in chunks of at most `chunk` entities, each its own transaction.
 * Returns the conflicts (the staging is then to be aborted) or none.
 */
export async function writeStaged(
  executor: Executor,
  staging: Staging,
  limits: ApplierLimits,
  chunk: number,
): Promise<{ mode: MergeMode; conflicts: MergeConflict[] }> {
  const { main, branch, view } = staging;
  const mode = mergeModeOf(main, branch);
  const branchHead = branchView(branch, main.id, branch.version);
  if (mode === 'fast_forward') {
    for (const label of STATE_LABELS) {
      for (let after = ''; ;) {
        const last = await executor.writeTx(async (tx) => {
          await holdStaging(tx, staging);
          const ids = (
            await tx.run<{ id: string }>(LINE_IDS[label], { line: branch.id, after, limit: chunk })
          ).map((r) => r.id);
          if (ids.length > 0) await fastForwardPage(tx, view, branchHead, label, ids);
          await refreshFindings(tx, view);
          return ids.length < chunk ? null : ids[ids.length - 1];
        });
        if (last === null) break;
        after = last;
      }
    }
    return { mode, conflicts: [] };
  }
  const plan = await executor.readTx((tx) => planReplay(tx, main, branch));
  const conflicts = plan.analysis.detect();
  if (conflicts.length > 0) return { mode, conflicts };
  // from the branch's last rebase on, its recorded deltas included (batchPages)
  for (let afterVersion = Math.max(0, (branch.rebased_version ?? 0) - 1); ;) {
    const next = await executor.writeTx(async (tx) => {
      await holdStaging(tx, staging);
      const page = await batchPage(tx, branch.id, afterVersion);
      if (page.length === 0) return { done: true, ok: true, last: afterVersion };
      const ok = await replayBatches(tx, view, onePage(page), plan.analysis, limits);
      if (ok) await refreshFindings(tx, view);
      return { done: false, ok, last: page[page.length - 1].version };
    });
    if (!next.ok) return { mode, conflicts: plan.analysis.conflicts.list() };
    if (next.done) break;
    afterVersion = next.last;
  }
  const added = [...plan.writes.addedNodes];
  for (let i = 0; i < added.length; i += chunk) {
    const part = { ...plan.writes, addedNodes: new Set(added.slice(i, i + chunk)) };
    await executor.writeTx(async (tx) => {
      await holdStaging(tx, staging);
      await placeAddedNodes(tx, view, plan.snaps.branch, part);
    });
  }
  return { mode, conflicts: [] };
}

async function* onePage<T>(page: T): AsyncGenerator<T> {
  yield page;
}

/**
 * Removes a staging's records (each statement auto-commits in batches) and ends its
 * lease, when the lease is still this staging's; otherwise the sweep owns it. A failure
 * here is logged, not thrown: the caller answers its own error, and the lease runs out
 * and the worker's sweep removes what is left.
 */
export async function abortStaging(
  executor: Executor,
  staging: Staging,
  logger?: Logger,
): Promise<void> {
  try {
    const held = await executor
      .writeTx((tx) => holdStaging(tx, staging))
      .then(
        () => true,
        () => false,
      );
    if (!held) return;
    await removeStaged(executor, staging.main.id, staging.view.ver);
    await executor.writeTx((tx) => endStaging(tx, staging));
  } catch (error) {
    logger?.warn(
      { err: (error as Error).message, mainId: staging.main.id, stageId: staging.stageId },
      'a merge staging could not be removed; the sweep removes it when its lease runs out',
    );
  }
}

async function removeStaged(executor: Executor, line: string, version: number): Promise<void> {
  for (const statement of ABORT_STAGING) await executor.autoCommit(statement, { line, version });
}

/** Abandoned stagings handled per sweep. */
export const SWEEP_STAGINGS = 50;

/**
 * The worker's sweep: removes the stagings whose lease ran out (a merge that crashed or
 * was cut off mid-way) and frees main. Returns how many it removed.
 */
export async function sweepMergeStagings(executor: Executor, now = Date.now()): Promise<number> {
  const found = await executor.read<{ mainId: string; stageId: string; version: number }>(
    findAbandonedStagings,
    { before: now, limit: SWEEP_STAGINGS },
  );
  let removed = 0;
  for (const { mainId, stageId, version } of found) {
    const taken = await executor.writeTx((tx) =>
      tx.one<{ version: number }>(takeOverLease, {
        mainId,
        stageId,
        before: now,
        until: Date.now() + STAGE_LEASE_MS,
      }),
    );
    // renewed meanwhile, or (never expected) already published: not abandoned
    if (!taken || taken.version >= version) continue;
    await removeStaged(executor, mainId, version);
    await executor.writeTx((tx) => tx.run(clearLease, { mainId, stageId }));
    removed += 1;
  }
  return removed;
}
