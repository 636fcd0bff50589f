/**
 * POST /v1/branches/{id}/deltas (§1.3, §4.15): an ordered batch applied in one
 * transaction under optimistic concurrency. The branch's write lock is taken
 * before the version is compared, so of N concurrent writers on one version
 * exactly one wins. A batch recorded under the caller's Idempotency-Key is never
 * applied twice: the key is stored with the batch and checked under the lock.
 */
import type { Principal } from '../../../shared/http/principal';
import type { ServiceContext } from '../../../shared/http/serviceContext';
import { nowTimestamp } from '../../../shared/http/timestamps';
import type { QueryRunner } from '../../../shared/neo4j/namedQuery';
import {
  requireProjectActive,
  requireVersion,
  requireWritable,
  visibleBranch,
} from '../../branches/branchAccess';
import { requireScope } from '../../identity/projectAccess';
import { BatchApplier } from '../deltas/batchApplier';
import type { DeltaBatch } from '../deltas/deltaTypes';
import { parseDeltaBatch } from '../deltas/parseDeltas';
import { findChangeByIdempotencyKey, recordBatch, touchBranch } from '../store/changeQueries';
import { writePositions } from '../store/deltaQueries';

export interface ApplyResult {
  applied: boolean;
  positionsApplied: number | null;
  branch: { id: string; version: number; project_id: string };
}

async function applyPositions(
  tx: QueryRunner,
  branchId: string,
  batch: DeltaBatch,
): Promise<number | null> {
  if (batch.positions === null) return null;
  if (batch.positions.size === 0) return 0;
  const positions = [...batch.positions].map(([id, p]) => ({ id, x: p.x, y: p.y }));
  const row = await tx.one<{ written: number }>(writePositions, { branchId, positions });
  return row?.written ?? 0;
}

export async function applyDeltas(
  ctx: ServiceContext,
  principal: Principal,
  branchId: string,
  body: unknown,
  idempotencyKey: string | null = null,
): Promise<ApplyResult> {
  return ctx.executor.writeTx(async (tx) => {
    const { branch, ...grant } = await visibleBranch(tx, principal, branchId, { lock: true });
    requireScope(principal, 'graph:write');
    const batch = parseDeltaBatch(body, {
      maxDeltas: ctx.config.limits.maxDeltasPerBatch,
      requireVersion: true,
    });
    requireWritable(branch);
    requireProjectActive(grant);
    const ref = { id: branch.id, project_id: branch.project_id };
    if (idempotencyKey !== null) {
      const done = await tx.one<{ version: number; positionsApplied: number | null }>(
        findChangeByIdempotencyKey,
        {
          branchId,
          key: idempotencyKey,
          scope: principal.userId,
        },
      );
      if (done)
        return {
          applied: true,
          positionsApplied: done.positionsApplied,
          branch: { ...ref, version: done.version },
        };
    }
    if (batch.deltas.length === 0) {
      const positionsApplied = await applyPositions(tx, branchId, batch);
      if (positionsApplied) await tx.run(touchBranch, { branchId, now: nowTimestamp() });
      return { applied: false, positionsApplied, branch: { ...ref, version: branch.version } };
    }
    requireVersion(branch, batch.expectedVersion as number);
    await new BatchApplier(tx, branchId).applyAll(batch.deltas);
    const positionsApplied = await applyPositions(tx, branchId, batch);
    const row = await tx.one<{ version: number }>(recordBatch, {
      branchId,
      now: nowTimestamp(),
      actorId: principal.userId,
      deltas: JSON.stringify((body as { deltas: unknown[] }).deltas),
      idempotencyKey,
      idempotencyScope: idempotencyKey === null ? null : principal.userId,
      positionsApplied,
    });
    return {
      applied: true,
      positionsApplied,
      branch: { ...ref, version: row?.version ?? branch.version + 1 },
    };
  });
}
