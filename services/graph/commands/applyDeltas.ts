/**
 * POST /v1/branches/{id}/deltas (applyDeltas): an ordered batch applied in one transaction under
 * optimistic concurrency. The branch's write lock is taken before the version is compared, so of N
 * concurrent writers on one version exactly one wins. A batch recorded under the caller's
 * Idempotency-Key is never applied twice: the key is stored with the batch (with the body's
 * fingerprint) and checked under the lock, so a retry whose cached answer Redis lost is answered
 * from the record, as a replay, even after the branch was merged or the project archived. The
 * change trail records the parsed deltas, never the body as sent (unknown keys dropped), and at
 * most limits.maxBatchBytes of them per batch (422 batch_too_large).
 */
import type { Principal } from '../../../shared/http/principal';
import type { ServiceContext } from '../../../shared/http/serviceContext';
import { nowTimestamp } from '../../../shared/http/timestamps';
import type { QueryRunner } from '../../../shared/neo4j/namedQuery';
import {
  branchGrant,
  requireProjectActive,
  requireVersion,
  requireWritable,
  visibleBranch,
} from '../../branches';
import { requireRole, requireScope } from '../../identity';
import { BatchApplier } from '../deltas/batchApplier';
import { BatchRecord, lockWithLeadingRun } from '../deltas/leadingRun';
import type { DeltaBatch } from '../deltas/deltaTypes';
import { grown, requireWithinQuota, usageOf } from '../branchUsage';
import { parseDeltaBatch } from '../deltas/parseDeltas';
import { recordBatchText } from '../deltas/wireDelta';
import { recordBatch, touchBranch } from '../store/changeQueries';
import { IdempotencyClaim, recordedChange } from '../recordedChange';
import { ChangeEntry, changeParams } from '../trail/changeRecord';
import { touchesOf, TouchRow } from '../trail/touches';
import { batchTouches } from '../trail/trail';
import { refreshFindings } from '../findingRecords';
import { NO_FINDING_CHANGES, runFindingParams } from '../runFindings';
import { sameFindingWrites } from '../runFindingPlan';
import { writePositions } from '../nodeWrites';
import { branchView, View, writeViewOf } from '../view';

export interface ApplyResult {
  applied: boolean;
  /** True when the batch had been applied before under the same Idempotency-Key. */
  replayed: boolean;
  positionsApplied: number | null;
  branch: { id: string; version: number; project_id: string };
}

async function applyPositions(
  tx: QueryRunner,
  view: View,
  batch: DeltaBatch,
): Promise<number | null> {
  if (batch.positions === null) return null;
  if (batch.positions.size === 0) return 0;
  const positions = [...batch.positions].map(([id, p]) => ({ id, x: p.x, y: p.y }));
  return writePositions(tx, view, positions);
}

/** The change trail's text of `batch`, or the batch_too_large error it earns. */
function trailText(
  ctx: ServiceContext,
  batch: DeltaBatch,
): { text: string; bytes: number } | { error: unknown } {
  try {
    return recordBatchText(batch.deltas, ctx.config.limits.maxBatchBytes);
  } catch (error) {
    return { error };
  }
}

/**
 * How a batch is recorded by its first statement, when it may be (lockWithLeadingRun then
 * decides whether the batch is one run of additions): not one that places positions, nor
 * one over the trail's size limit (refused after the access checks), nor one under an
 * Idempotency-Key (that key's earlier batch, if any, is looked for after the lock, and
 * must be found alone).
 */
function recordAhead(
  principal: Principal,
  batch: DeltaBatch,
  text: ReturnType<typeof trailText> | undefined,
  idempotency: IdempotencyClaim | null,
): BatchRecord | null {
  if (idempotency !== null || batch.positions !== null || !text || 'error' in text) return null;
  const now = nowTimestamp();
  return { now, ...batchChange(principal, text, touchesOf(batch.deltas), null, null, now) };
}

/** The trail's record of a batch (graph/trail/): its text, key, positions and touches. */
function batchChange(
  principal: Principal,
  text: { text: string; bytes: number },
  touches: TouchRow[],
  idempotency: IdempotencyClaim | null,
  positionsApplied: number | null,
  now: string,
) {
  const entry: ChangeEntry = {
    kind: 'batch',
    actorId: principal.userId,
    now,
    deltas: text,
    idempotency: idempotency && { ...idempotency, scope: principal.userId },
    positionsApplied,
  };
  return changeParams(entry, touches);
}

/**
 * What apply checks before it looks at the batch (visible branch, graph:write, editor
 * role), read without a lock: an Idempotency-Key's kept answer is served only after it.
 */
export async function requireApplyAccess(
  ctx: ServiceContext,
  principal: Principal,
  branchId: string,
): Promise<void> {
  await ctx.executor.readTx(async (tx) => {
    const grant = await visibleBranch(tx, principal, branchId);
    requireScope(principal, 'graph:write');
    requireRole(grant, 'editor');
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
    // Statements: the body is parsed first, so that what its leading additions need is
    // read in the statement that takes the branch's lock (through the write view of the
    // locked row); a body that does not parse, or does not start with an addition, takes
    // the lock alone. A body that does not parse is still answered only after the access
    // checks, as before.
    let parsed: { batch: DeltaBatch } | { error: unknown };
    try {
      parsed = {
        batch: parseDeltaBatch(body, {
          maxDeltas: ctx.config.limits.maxDeltasPerBatch,
          requireVersion: true,
        }),
      };
    } catch (error) {
      parsed = { error };
    }
    const maxDepth = ctx.config.limits.maxNestingDepth;
    // the change trail's text is known from the deltas: a batch of additions only may be
    // recorded by its first statement too, and is refused if its checks then fail
    const text = 'batch' in parsed ? trailText(ctx, parsed.batch) : undefined;
    const lockedRun =
      'batch' in parsed
        ? await lockWithLeadingRun(
            tx,
            { id: branchId, userId: principal.userId },
            parsed.batch.deltas,
            maxDepth,
            parsed.batch.expectedVersion as number,
            recordAhead(principal, parsed.batch, text, idempotency),
          )
        : undefined;
    const { branch, ...grant } = lockedRun
      ? branchGrant(principal, lockedRun.access)
      : await visibleBranch(tx, principal, branchId, { lock: true });
    // the batch reads and writes the branch's next version; recordBatch publishes it (the
    // facts were read through the write view of the locked row: the applier checks that
    // view against this one before it uses them)
    const view = writeViewOf(branchView(branch, branch.main_id, branch.version));
    const applier = new BatchApplier(
      tx,
      view,
      { maxDepth },
      { leadingFacts: lockedRun?.facts, deriveFindings: true },
    );
    requireScope(principal, 'graph:write');
    requireRole(grant, 'editor');
    const ref = { id: branch.id, project_id: branch.project_id };
    if (idempotency !== null) {
      const done = await recordedChange(
        ctx,
        tx,
        { branchId, userId: principal.userId, kind: 'batch' },
        idempotency,
      );
      if (done) {
        // a recorded batch advanced the branch past the version it expected, so its leading
        // run was not written ahead of its checks; records written at an unpublished version
        // must never be committed, so this transaction would roll back rather than answer
        if (lockedRun?.prewritten)
          throw new Error('a replayed batch wrote its leading run: refusing to commit it');
        return {
          applied: true,
          replayed: true,
          positionsApplied: done.positionsApplied,
          branch: { ...ref, version: done.version },
        };
      }
    }
    if ('error' in parsed) throw parsed.error;
    const { batch } = parsed;
    requireWritable(branch);
    requireProjectActive(grant);
    if (batch.deltas.length === 0) {
      // positions are not history: with no deltas they are placed at the current version
      const current = branchView(branch, branch.main_id, branch.version);
      const positionsApplied = await applyPositions(tx, current, batch);
      if (positionsApplied) await tx.run(touchBranch, { branchId, now: nowTimestamp() });
      return {
        applied: false,
        replayed: false,
        positionsApplied,
        branch: { ...ref, version: branch.version },
      };
    }
    requireVersion(branch, batch.expectedVersion as number);
    if (text && 'error' in text) throw text.error;
    const recorded = text as { text: string; bytes: number };
    const before = await usageOf(tx, branch);
    // A batch ending with additions leaves that last write unanswered here, so that the
    // record below travels in the same round trip; the write's own errors still win
    // (applier.written() is awaited before the record's answer is looked at).
    await applier.sendAll(batch.deltas);
    const ahead = lockedRun?.recorded;
    if (ahead) {
      // the first statement recorded the batch: it stands only if the checks above passed,
      // the quota holds, and the findings it chose are those the facts give
      requireWithinQuota(ctx.config.quotas, before, grown(before, applier.usage, recorded.bytes));
      if (!applier.runFindings || !sameFindingWrites(ahead, applier.runFindings))
        throw new Error("the batch's first statement recorded other findings than its facts give");
      await applier.written();
      return {
        applied: true,
        replayed: false,
        positionsApplied: null,
        branch: { ...ref, version: ahead.version },
      };
    }
    const recording = (async () => {
      const after = grown(before, applier.usage, recorded.bytes);
      requireWithinQuota(ctx.config.quotas, before, after);
      // read before the findings take what the batch wrote
      const touches = await batchTouches(tx, view, batch.deltas);
      // the findings, the positions and the record travel together: the record reads
      // nothing the findings write, and all of it commits or none. A batch that is one run
      // of additions has its findings derived from the facts its checks read, and written
      // by the record's statement (no read after the write); any other batch has them
      // recomputed from a read of what it wrote (refreshFindings)
      const derived = applier.runFindings;
      const findings = derived ? Promise.resolve() : refreshFindings(tx, view);
      findings.catch(() => undefined); // awaited below
      const findingParams = derived ? runFindingParams(tx, view, derived) : NO_FINDING_CHANGES;
      const positionsApplied = await applyPositions(tx, view, batch);
      const now = nowTimestamp();
      const row = await tx.one<{ version: number }>(recordBatch, {
        view,
        ...findingParams,
        branchId,
        now,
        ...after,
        ...batchChange(principal, recorded, touches, idempotency, positionsApplied, now),
      });
      await findings;
      return { row, positionsApplied };
    })();
    recording.catch(() => undefined); // awaited below, after the write it follows
    await applier.written();
    const { row, positionsApplied } = await recording;
    return {
      applied: true,
      replayed: false,
      positionsApplied,
      branch: { ...ref, version: row?.version ?? branch.version + 1 },
    };
  });
}
