/**
 * mergeBranch (POST /v1/branches/{id}/merge): merge a working branch into main, all or nothing on both sides. Scope
 * graph:write; the branch's owner (others: 404) with an editor role (403). Main is
 * locked first, then the branch, always in that order, and versions are compared
 * only under both locks. On success main advances by one, which publishes the records
 * the merge wrote at that version, and records the merge on its trail (kind merge); the
 * branch becomes merged. Any conflict: 409 merge_conflict, nothing kept. A merge of more
 * than STAGE_RECORDS entities is written in chunks under a lease on main and published in
 * a last small transaction (stagedMerge.ts); meanwhile other merges into main answer 503.
 */
import { ConflictError, InvalidInputError } from '../../../shared/errors/domainErrors';
import type { Principal } from '../../../shared/http/principal';
import type { ServiceContext } from '../../../shared/http/serviceContext';
import { nowTimestamp } from '../../../shared/http/timestamps';
import {
  loadMainBranch,
  markBranchMerged,
  requireBranchChangeable,
  requireProjectActive,
  requireVersion,
  requireWritable,
  visibleBranch,
} from '../../branches';
import type { BranchRecord } from '../../branches';
import { appendMerge, mainView, saveUsage, writeViewOf } from '../../graph';
import type { ApplierLimits, BranchUsage } from '../../graph';
import type { QueryRunner } from '../../../shared/neo4j/namedQuery';
import { mainUsageAfter } from '../mainUsage';
import type { MergeConflict } from '../conflicts/conflictList';
import { MergeMode, runMerge, writtenChange } from '../mergeEngine';
import {
  abortStaging,
  endStaging,
  exceedsStageLimit,
  holdStaging,
  LeasedBranch,
  openStaging,
  requireNoStaging,
  Staging,
  writeStaged,
} from '../stagedMerge';
import { advanceMain } from '../store/mergeQueries';
import { measureWritten } from '../writtenMeasure';
import { recordEvent } from '../../feed';
import { MergeGate, OPEN_GATE, requireRulesMet } from '../mergeGate';

export interface MergeResult {
  branch: BranchRecord;
  main: BranchRecord;
  mode: MergeMode;
}

export interface MergeOptions {
  /** Records written in one transaction at most; a larger merge is staged. */
  stageRecords?: number;
  /** Main's protection rules (the reviews service); none when absent. */
  gate?: MergeGate;
}

function conflictError(conflicts: MergeConflict[]): ConflictError {
  const n = conflicts.length;
  return new ConflictError(
    'merge_conflict',
    `the merge conflicts with main in ${n} place${n === 1 ? '' : 's'}; nothing was changed`,
    { conflicts },
  );
}

/** Locks main then the branch (always in that order: two merges never deadlock) and checks. */
async function lockForMerge(
  tx: QueryRunner,
  principal: Principal,
  branchId: string,
  expectedVersion: number,
): Promise<{ main: LeasedBranch; branch: BranchRecord }> {
  const { branch: seen, ...grant } = await visibleBranch(tx, principal, branchId);
  requireBranchChangeable(principal, grant, seen);
  const main = await loadMainBranch(tx, seen.project_id, { lock: true });
  const { branch, ...locked } = await visibleBranch(tx, principal, branchId, { lock: true });
  requireWritable(branch);
  // read again under the locks: an archive in between has committed by now
  requireProjectActive(locked);
  requireVersion(branch, expectedVersion);
  return { main, branch };
}

/**
 * Publishes what the merge wrote at main's next version: main's usage (quotas), the
 * version bump with the merge on main's trail, the branch marked merged, its change
 * request merged (the gate) and the feed's event, all in the merge's transaction.
 */
async function publish(
  ctx: ServiceContext,
  tx: QueryRunner,
  principal: Principal,
  gate: MergeGate,
  main: BranchRecord,
  branch: BranchRecord,
  mode: MergeMode,
  measured?: BranchUsage,
): Promise<MergeResult> {
  const change =
    measured ??
    (await writtenChange(
      tx,
      mainView(main.id, main.version),
      writeViewOf(mainView(main.id, main.version)),
    ));
  const usage = await mainUsageAfter(ctx, tx, main, change);
  if (usage.problem !== null) throw new InvalidInputError('branch_quota_exceeded', usage.problem);
  await saveUsage(tx, main.id, usage.after);
  const now = nowTimestamp();
  const advanced = await tx.one<{ branch: BranchRecord }>(advanceMain, { mainId: main.id, now });
  if (!advanced) throw new Error('the merge was not recorded on main');
  await appendMerge(tx, main.id, {
    kind: 'merge',
    actorId: principal.userId,
    now,
    deltas: null,
    merged: { branchId: branch.id, mode },
  });
  const merged = await markBranchMerged(tx, branch.id, now);
  await recordEvent(tx, {
    projectId: branch.project_id,
    kind: 'branch_merged',
    actorId: principal.userId,
    now,
    branchId: branch.id,
    branchVersion: advanced.branch.version,
  });
  await gate.merged(tx, { branch: merged, actorId: principal.userId, now });
  return { branch: merged, main: advanced.branch, mode };
}

export async function mergeBranch(
  ctx: ServiceContext,
  principal: Principal,
  branchId: string,
  expectedVersion: number,
  options: MergeOptions = {},
): Promise<MergeResult> {
  const limits = { maxDepth: ctx.config.limits.maxNestingDepth };
  const stageRecords = options.stageRecords ?? ctx.config.staging.records;
  const gate = options.gate ?? OPEN_GATE;
  type First = { staging: Staging } | { result: MergeResult };
  const first = await ctx.executor.writeTx(async (tx): Promise<First> => {
    const { main, branch } = await lockForMerge(tx, principal, branchId, expectedVersion);
    requireNoStaging(main);
    if (await exceedsStageLimit(tx, branch.id, stageRecords)) {
      return { staging: await openStaging(tx, main, branch) };
    }
    const outcome = await runMerge(tx, main, branch, limits);
    if (outcome.conflicts.length > 0) throw conflictError(outcome.conflicts);
    await requireRulesMet(gate, tx, { main, branch, merged: outcome.view });
    return { result: await publish(ctx, tx, principal, gate, main, branch, outcome.mode) };
  });
  if ('result' in first) return first.result;
  return mergeStaged(ctx, principal, gate, first.staging, limits, stageRecords);
}

/** The staged path: chunks, then a small publishing transaction; any failure removes the staging. */
async function mergeStaged(
  ctx: ServiceContext,
  principal: Principal,
  gate: MergeGate,
  staging: Staging,
  limits: ApplierLimits,
  chunk: number,
): Promise<MergeResult> {
  let published = false;
  try {
    const written = await writeStaged(ctx.executor, staging, limits, chunk);
    if (written.conflicts.length > 0) throw conflictError(written.conflicts);
    // measured before the publishing transaction, which stays small
    const { usage } = await measureWritten(
      ctx.executor,
      mainView(staging.main.id, staging.main.version),
      staging.view,
    );
    const result = await ctx.executor.writeTx(async (tx) => {
      const main = await holdStaging(tx, staging);
      if (main.version !== staging.main.version) throw new Error('main moved under a merge lease');
      const { branch, ...grant } = await visibleBranch(tx, principal, staging.branch.id, {
        lock: true,
      });
      // everything checked when the merge began, again: while the chunks were written
      // the caller may have lost the editor role, or the project been archived
      requireBranchChangeable(principal, grant, branch);
      // the branch changed while the merge was written: what was staged is not its head
      requireVersion(branch, staging.branch.version);
      await requireRulesMet(gate, tx, { main, branch, merged: staging.view });
      const done = await publish(ctx, tx, principal, gate, main, branch, written.mode, usage);
      await endStaging(tx, staging);
      return done;
    });
    published = true;
    return result;
  } finally {
    if (!published) await abortStaging(ctx.executor, staging, ctx.logger);
  }
}
