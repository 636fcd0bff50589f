/**
 * How applyDeltas records a batch on its branch's change trail (stage 8, record): the
 * parameters of the record (store/changeQueries.ts recordBatch, or the first statement's
 * publishBatchCypher when the batch is one run of additions: recordAhead) and the statement
 * that writes it after the checks with the batch's findings and positions (recordBatchAfterChecks).
 */
import type { Principal } from '../../../shared/http/principal';
import { nowTimestamp } from '../../../shared/http/timestamps';
import type { QueryRunner } from '../../../shared/neo4j/namedQuery';
import type { BranchUsage } from '../branchUsage';
import type { BatchApplier } from '../deltas/batchApplier';
import type { DeltaBatch } from '../deltas/deltaTypes';
import type { BatchRecord } from '../deltas/leadingRun';
import { refreshFindings } from '../findingRecords';
import { writePositions } from '../nodeWrites';
import type { IdempotencyClaim } from '../recordedChange';
import { FindingParams, NO_FINDING_CHANGES, runFindingParams } from '../runFindings';
import { recordBatch } from '../store/changeQueries';
import { ChangeEntry, ChangeParams, changeParams } from '../trail/changeRecord';
import { touchesOf, TouchRow } from '../trail/touches';
import { batchTouches } from '../trail/trail';
import type { View } from '../view';

/** Something refused, kept to be thrown at the stage that answers it. */
export type Refused = { refused: unknown };

/** A batch's change trail text and its size, or its batch_too_large refusal. */
export type TrailText = { text: string; bytes: number } | Refused;

/**
 * How a batch is recorded by its first statement, when it may be (lockWithLeadingRun then
 * decides whether the batch is one run of additions): not one that places positions, nor
 * one over the trail's size limit (refused after the access checks), nor one under an
 * Idempotency-Key (that key's earlier batch, if any, is looked for after the lock, and
 * must be found alone).
 */
export function recordAhead(
  principal: Principal,
  parsed: { batch: DeltaBatch; trail: TrailText },
  idempotency: IdempotencyClaim | null,
): BatchRecord | null {
  const { batch, trail } = parsed;
  if (idempotency !== null || batch.positions !== null || 'refused' in trail) return null;
  const now = nowTimestamp();
  return { now, ...batchChange(principal, trail, touchesOf(batch.deltas), null, null, now) };
}

/**
 * The trail's record of a batch (graph/trail/): its text, the caller's Idempotency-Key
 * (none: null), the positions it placed and what it touched.
 */
function batchChange(
  principal: Principal,
  trail: { text: string; bytes: number },
  touches: TouchRow[],
  idempotency: IdempotencyClaim | null,
  positionsApplied: number | null,
  now: string,
): ChangeParams {
  const entry: ChangeEntry = {
    kind: 'batch',
    actorId: principal.userId,
    now,
    deltas: trail,
    idempotency: idempotency && { ...idempotency, scope: principal.userId },
    positionsApplied,
  };
  return changeParams(entry, touches);
}

/** Places the batch's positions (none: null), counting those written. */
export async function applyPositions(tx: QueryRunner, view: View, batch: DeltaBatch) {
  if (batch.positions === null) return null;
  if (batch.positions.size === 0) return 0;
  const positions = [...batch.positions].map(([id, p]) => ({ id, x: p.x, y: p.y }));
  return writePositions(tx, view, positions);
}

/**
 * 8. record: the findings, the positions and the change record travel together (the
 * record reads nothing the findings write, and all of it commits or none). A batch that is
 * one run of additions has its findings derived from the facts its checks read and written
 * by the record's statement (no read after the write); any other batch has them recomputed
 * from a read of what it wrote (refreshFindings), alongside the record.
 */
export async function recordBatchAfterChecks(
  tx: QueryRunner,
  principal: Principal,
  view: View,
  batch: DeltaBatch,
  idempotency: IdempotencyClaim | null,
  record: BranchUsage & {
    findings: BatchApplier['runFindings'];
    trail: { text: string; bytes: number };
  },
): Promise<{ version: number | undefined; positions: number | null }> {
  const { findings, trail, ...after } = record;
  // what the batch touched, read before the findings take what it wrote
  const touches = await batchTouches(tx, view, batch.deltas);
  const positionsAndRecord = async (findingParams: FindingParams) => {
    const positions = await applyPositions(tx, view, batch);
    const now = nowTimestamp();
    const row = await tx.one<{ version: number }>(recordBatch, {
      view,
      ...findingParams,
      branchId: view.line,
      now,
      ...after,
      ...batchChange(principal, trail, touches, idempotency, positions, now),
    });
    return { version: row?.version, positions };
  };
  // each takes what the batch wrote (writtenEntities.ts) before the positions are placed
  if (findings) return positionsAndRecord(runFindingParams(tx, view, findings));
  const [, recorded] = await Promise.all([
    refreshFindings(tx, view),
    positionsAndRecord(NO_FINDING_CHANGES),
  ]);
  return recorded;
}
