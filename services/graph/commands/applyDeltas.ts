/**
 * POST /v1/branches/{id}/deltas (applyDeltas): an ordered batch applied in one transaction under
 * optimistic concurrency. The branch's write lock is taken before the version is compared, so of N
 * concurrent writers on one version exactly one wins. A batch recorded under the caller's
 * Idempotency-Key is never applied twice: the key is stored with the batch (with the body's
 * fingerprint) and checked under the lock, so a retry whose cached answer Redis lost is answered
 * from the record, as a replay, even after the branch was merged or the project archived. The
 * change trail records the parsed deltas, never the body as sent (unknown keys dropped), and at
 * most limits.maxBatchBytes of them per batch (422 batch_too_large).
 *
 * The stages, in the order applyDeltas runs them:
 *   1. parse      parseBody: the batch and its trail text, or why the body is refused (the
 *                 refusal is answered only after the access checks, as for any caller)
 *   2. lock       lockBranch: the branch's write lock, the caller's access row and, for a batch
 *                 starting with additions, the facts of that run in the same statement
 *                 (deltas/leadingRun.ts), which may also write the run and record the batch
 *                 ahead of the checks below (any refusal rolls all of it back)
 *   3. authorize  authorize: the branch is visible, the caller owns it, graph:write, editor role
 *   4. replay     replayOf: the batch earlier recorded under the Idempotency-Key, if any
 *   5. admit      admit: the body parsed, the branch writable, the project active; a batch of
 *                 positions only is placed here (placePositionsOnly)
 *   6. compare    requireVersion, then the trail text's size and the branch's usage
 *   7. write      writeAndRecord: the deltas through the BatchApplier (deltas/batchApplier.ts)
 *   8. record     ...with the quota, the findings, the positions and the change record sent
 *                 in the same round trip as the last write (batchRecord.ts)
 *   9. feed       recordBatchEvent: the project's feed gets the batch's event in this
 *                 transaction (services/feed), so it commits or rolls back with the batch
 *  10. answer     the ApplyResult
 */
import type { Principal } from '../../../shared/http/principal';
import type { ServiceContext } from '../../../shared/http/serviceContext';
import { nowTimestamp } from '../../../shared/http/timestamps';
import type { QueryRunner } from '../../../shared/neo4j/namedQuery';
import {
  BranchGrant,
  branchGrant,
  requireProjectActive,
  requireBranchOwner,
  requireVersion,
  requireWritable,
  visibleBranch,
} from '../../branches';
import type { BranchRecord } from '../../branches';
import { branchAudience, recordEvent } from '../../feed';
import { requireRole, requireScope } from '../../identity';
import { BatchApplier } from '../deltas/batchApplier';
import { LockedRunFacts, lockWithLeadingRun } from '../deltas/leadingRun';
import type { DeltaBatch } from '../deltas/deltaTypes';
import { BranchUsage, grown, requireWithinQuota, usageOf } from '../branchUsage';
import {
  applyPositions,
  recordAhead,
  recordBatchAfterChecks,
  Refused,
  TrailText,
} from './batchRecord';
import { parseDeltaBatch } from '../deltas/parseDeltas';
import { recordBatchText } from '../deltas/wireDelta';
import { touchBranch } from '../store/changeQueries';
import { IdempotencyClaim, recordedChange } from '../recordedChange';
import { branchView, View, writeViewOf } from '../view';

export interface ApplyResult {
  applied: boolean;
  /** True when the batch had been applied before under the same Idempotency-Key. */
  replayed: boolean;
  positionsApplied: number | null;
  branch: { id: string; version: number; project_id: string };
}

/** Stage 1's output: the batch and its trail text, or why the body does not parse. */
type ParsedBody = { batch: DeltaBatch; trail: TrailText } | Refused;

/** Stage 2's output: the locked branch's grant, and the leading run's facts when read with the lock. */
interface LockedBranch {
  grant: BranchGrant;
  leading: LockedRunFacts | undefined;
}

/** What the write and record stages need, all checks passed. */
interface AdmittedBatch {
  batch: DeltaBatch;
  trail: { text: string; bytes: number };
  branch: BranchGrant['branch'];
  /** The branch's usage before the batch (quota checks). */
  before: BranchUsage;
  /** The write view: the branch's next version, which recordBatch publishes. */
  view: View;
  leading: LockedRunFacts | undefined;
}

/** 1. parse: the batch, or the error its body earns (thrown after the access checks). */
function parseBody(ctx: ServiceContext, body: unknown): ParsedBody {
  const refusal = <T>(make: () => T): T | Refused => {
    try {
      return make();
    } catch (refused) {
      return { refused };
    }
  };
  const limits = ctx.config.limits;
  const batch = refusal(() =>
    parseDeltaBatch(body, { maxDeltas: limits.maxDeltasPerBatch, requireVersion: true }),
  );
  if ('refused' in batch) return batch;
  return { batch, trail: refusal(() => recordBatchText(batch.deltas, limits.maxBatchBytes)) };
}

/**
 * 2. lock: the branch's write lock and the caller's access row; for a batch that parses and
 * starts with additions, in the statement that also reads (and may write and record) that
 * leading run (deltas/leadingRun.ts), else alone.
 */
async function lockBranch(
  ctx: ServiceContext,
  tx: QueryRunner,
  principal: Principal,
  branchId: string,
  parsed: ParsedBody,
  idempotency: IdempotencyClaim | null,
): Promise<LockedBranch> {
  const leading =
    'batch' in parsed
      ? await lockWithLeadingRun(
          tx,
          { id: branchId, userId: principal.userId },
          parsed.batch.deltas,
          ctx.config.limits.maxNestingDepth,
          parsed.batch.expectedVersion as number,
          recordAhead(principal, parsed, idempotency),
        )
      : undefined;
  const grant = leading
    ? branchGrant(principal, leading.access)
    : await visibleBranch(tx, principal, branchId, { lock: true });
  return { grant, leading };
}

/**
 * 3. authorize: what apply checks before it looks at the batch (visible branch, its owner,
 * graph:write, editor role: a member reading a branch under review may not change it). The route checks it once without a lock (requireApplyAccess), so that an
 * Idempotency-Key's kept answer is served only after it; applyDeltas again under the lock.
 */
function authorize(principal: Principal, grant: BranchGrant): void {
  requireBranchOwner(principal, grant.branch);
  requireScope(principal, 'graph:write');
  requireRole(grant, 'editor');
}

export async function requireApplyAccess(
  ctx: ServiceContext,
  principal: Principal,
  branchId: string,
): Promise<void> {
  await ctx.executor.readTx(async (tx) => {
    authorize(principal, await visibleBranch(tx, principal, branchId));
  });
}

/** 4. replay: the answer of the batch earlier recorded under the caller's Idempotency-Key, if any. */
async function replayOf(
  ctx: ServiceContext,
  tx: QueryRunner,
  principal: Principal,
  locked: LockedBranch,
  idempotency: IdempotencyClaim | null,
): Promise<ApplyResult | null> {
  if (idempotency === null) return null;
  const { branch } = locked.grant;
  const request = { branchId: branch.id, userId: principal.userId, kind: 'batch' as const };
  const done = await recordedChange(ctx, tx, request, idempotency);
  if (!done) return null;
  // a recorded batch advanced the branch past the version it expected, so its leading run
  // was not written ahead of its checks; records written at an unpublished version must
  // never be committed, so this transaction would roll back rather than answer
  if (locked.leading?.prewritten)
    throw new Error('a replayed batch wrote its leading run: refusing to commit it');
  return answer(branch, {
    replayed: true,
    version: done.version,
    positions: done.positionsApplied,
  });
}

/** 5. admit: the body parsed, and the branch is one a batch may write. */
function admit(parsed: ParsedBody, grant: BranchGrant): { batch: DeltaBatch; trail: TrailText } {
  if ('refused' in parsed) throw parsed.refused;
  requireWritable(grant.branch);
  requireProjectActive(grant);
  return parsed;
}

/** Positions are not history: a batch of no deltas places them at the current version. */
async function placePositionsOnly(
  tx: QueryRunner,
  branch: BranchGrant['branch'],
  batch: DeltaBatch,
): Promise<ApplyResult> {
  const current = branchView(branch, branch.main_id, branch.version);
  const positions = await applyPositions(tx, current, batch);
  if (positions) await tx.run(touchBranch, { branchId: branch.id, now: nowTimestamp() });
  return answer(branch, { applied: false, version: branch.version, positions });
}

/**
 * 7. write and 8. record: the deltas through the applier, then the record, sent before the
 * last write of additions is answered (BatchApplier.applyThen), the write's errors winning.
 */
async function writeAndRecord(
  ctx: ServiceContext,
  tx: QueryRunner,
  principal: Principal,
  admitted: AdmittedBatch,
  idempotency: IdempotencyClaim | null,
): Promise<ApplyResult> {
  const { batch, trail, branch, before, view, leading } = admitted;
  const applier = new BatchApplier(
    tx,
    view,
    { maxDepth: ctx.config.limits.maxNestingDepth },
    // a batch the first statement recorded has its findings written already
    { leadingFacts: leading?.facts, deriveFindings: !leading?.recorded },
  );
  return applier.applyThen(batch.deltas, async () => {
    const after = grown(before, applier.usage, trail.bytes);
    requireWithinQuota(ctx.config.quotas, before, after);
    // the first statement recorded the batch: it stands, the checks having passed
    const ahead = leading?.recorded;
    if (ahead) return answer(branch, { version: ahead.version, positions: null });
    const { version, positions } = await recordBatchAfterChecks(
      tx,
      principal,
      view,
      batch,
      idempotency,
      {
        ...after,
        findings: applier.runFindings,
        trail,
      },
    );
    return answer(branch, { version: version ?? branch.version + 1, positions });
  });
}

/** 9. answer. */
function answer(
  branch: BranchGrant['branch'],
  outcome: { version: number; positions: number | null; replayed?: boolean; applied?: boolean },
): ApplyResult {
  return {
    applied: outcome.applied ?? true,
    replayed: outcome.replayed ?? false,
    positionsApplied: outcome.positions,
    branch: { id: branch.id, project_id: branch.project_id, version: outcome.version },
  };
}

/**
 * The feed's batch_applied event of working branch `branch` at its new `version`: its
 * owner sees it, and every member while the branch is under review (branchAudience).
 */
export function recordBatchEvent(
  tx: QueryRunner,
  principal: Principal,
  branch: BranchRecord,
  version: number,
): Promise<void> {
  return recordEvent(tx, {
    projectId: branch.project_id,
    kind: 'batch_applied',
    actorId: principal.userId,
    now: nowTimestamp(),
    branchId: branch.id,
    branchVersion: version,
    onlyFor: branchAudience(branch),
  });
}

export async function applyDeltas(
  ctx: ServiceContext,
  principal: Principal,
  branchId: string,
  body: unknown,
  idempotency: IdempotencyClaim | null = null,
): Promise<ApplyResult> {
  return ctx.executor.writeTx(async (tx) => {
    // 1. parse
    const parsed = parseBody(ctx, body);
    // 2. lock
    const locked = await lockBranch(ctx, tx, principal, branchId, parsed, idempotency);
    // 3. authorize
    authorize(principal, locked.grant);
    // 4. replay
    const replayed = await replayOf(ctx, tx, principal, locked, idempotency);
    if (replayed) return replayed;
    // 5. admit
    const { batch, trail } = admit(parsed, locked.grant);
    const { branch } = locked.grant;
    if (batch.deltas.length === 0) return placePositionsOnly(tx, branch, batch);
    // 6. compare the version, then the trail's size limit and the usage the quotas grow from
    requireVersion(branch, batch.expectedVersion as number);
    if ('refused' in trail) throw trail.refused;
    const before = await usageOf(tx, branch);
    // 7. write, 8. record: the batch reads and writes the branch's next version,
    // which its record publishes (the leading run's facts were read through the write view
    // of the locked row: the applier checks that view against this one before using them)
    const view = writeViewOf(branchView(branch, branch.main_id, branch.version));
    const admitted = { batch, trail, branch, before, view, leading: locked.leading };
    const applied = await writeAndRecord(ctx, tx, principal, admitted, idempotency);
    // 9. the project's feed, in this transaction: the batch's event commits with it
    await recordBatchEvent(tx, principal, branch, applied.branch.version);
    // 10. answer
    return applied;
  });
}
