/**
 * Replays a branch's recorded batches, in order, onto main with the same BatchApplier as a delta
 * apply, so every structural invariant holds on main as it does on a branch. The first delta that
 * no longer applies stops the replay and becomes a conflict whose reason is its error code, with
 * delta_index and batch_version; the caller's transaction then rolls back.
 */
import {
  DeltaError,
  DomainError,
  EdgeNotFoundError,
  NodeNotFoundError,
} from '../../shared/errors/domainErrors';
import type { QueryRunner } from '../../shared/neo4j/namedQuery';
import { ApplierLimits, BatchApplier } from '../graph';
import type { Delta, View } from '../graph';
import type { RecordedBatch } from './branchHistory';
import { idsNamedBy } from './branchHistory';
import type { MergeAnalysis } from './conflicts/mergeAnalysis';
import type { SideChange } from './conflicts/mergeSide';
import type { EntityKind } from './graphSnapshot';

function failure(
  error: unknown,
): { code: string; entityId: string | null; field: string | null } | null {
  if (error instanceof DeltaError) {
    const field = error.envelope.field?.replace(/^deltas\[\d+\]\.?/, '') || null;
    return { code: error.envelope.error, entityId: error.envelope.entity_id, field };
  }
  if (error instanceof NodeNotFoundError || error instanceof EdgeNotFoundError) {
    const id = (error as DomainError).extra.node_id ?? (error as DomainError).extra.edge_id;
    return { code: error.code, entityId: typeof id === 'string' ? id : null, field: null };
  }
  return null;
}

function describeDelta(delta: Delta, batchVersion: number, message: string): SideChange {
  const where = `${delta.type} (batch ${batchVersion}, delta ${delta.index}) no longer applies: ${message}`;
  switch (delta.type) {
    case 'add_node':
      return {
        action: 'added',
        summary: where,
        values: { name: delta.node.data.name ?? '', parent_id: delta.node.parent_id },
      };
    case 'add_edge':
      return { action: 'added', summary: where, values: { ...delta.edge } };
    case 'update_node_data':
      return {
        action: delta.after.parent_id !== undefined ? 'reparented' : 'modified',
        summary: where,
        values: { ...delta.after },
      };
    case 'reparent_node':
      return { action: 'reparented', summary: where, values: { parent_id: delta.parent_id } };
    default:
      return { action: 'deleted', summary: where, values: null };
  }
}

/** The kind of a failed delta's entity: a replay fails on an entity either side changed
 * (loaded in the sparse snapshots); otherwise the delta's type tells. */
function kindOf(a: MergeAnalysis, id: string, delta: Delta | null): EntityKind {
  for (const snap of [a.main.snap, a.branch.snap, a.base]) {
    if (snap.node.has(id)) return 'node';
    if (snap.port.has(id)) return 'port';
    if (snap.edge.has(id)) return 'edge';
  }
  return delta?.type === 'add_edge' || delta?.type === 'delete_edge' ? 'edge' : 'node';
}

/** The delta a failure belongs to: the envelope's index, or the first delta naming the entity. */
function failedDelta(batch: RecordedBatch, error: unknown, entityId: string | null): Delta | null {
  const index = error instanceof DeltaError ? error.envelope.delta_index : null;
  if (index !== null) return batch.deltas.find((d) => d.index === index) ?? null;
  return batch.deltas.find((d) => entityId !== null && idsNamedBy(d)[0] === entityId) ?? null;
}

/**
 * Applies every batch onto main through `view` (main's write view), a page of the
 * trail at a time; false (with one conflict added) when a batch fails.
 */
export async function replayBatches(
  tx: QueryRunner,
  view: View,
  pages: AsyncIterable<RecordedBatch[]>,
  analysis: MergeAnalysis,
  limits: ApplierLimits,
): Promise<boolean> {
  const applier = new BatchApplier(tx, view, limits);
  for await (const page of pages) {
    if (!(await replayPage(applier, page, analysis))) return false;
  }
  return true;
}

async function replayPage(
  applier: BatchApplier,
  batches: RecordedBatch[],
  analysis: MergeAnalysis,
): Promise<boolean> {
  for (const batch of batches) {
    try {
      await applier.applyAll(batch.deltas);
    } catch (error) {
      const failed = failure(error);
      if (!failed) throw error;
      const delta = failedDelta(batch, error, failed.entityId);
      const id = failed.entityId ?? (delta ? (idsNamedBy(delta)[0] ?? null) : null);
      const kind = id === null ? null : kindOf(analysis, id, delta);
      const main =
        id !== null && kind !== null && analysis.main.touched(id)
          ? analysis.main.describe(kind, id, [])
          : id !== null && kind !== null && analysis.main.deleted(kind, id)
            ? { action: 'deleted' as const, summary: `deleted the ${kind}`, values: null }
            : null;
      const message = (error as Error).message;
      analysis.conflicts.add({
        reason: failed.code,
        error: failed.code,
        kind,
        id,
        fields: failed.field ? [failed.field] : [],
        branch: delta
          ? describeDelta(delta, batch.version, message)
          : {
              action: 'modified',
              summary: `batch ${batch.version} no longer applies: ${message}`,
              values: null,
            },
        main,
        ref: { batchVersion: batch.version, deltaIndex: delta?.index ?? null },
      });
      return false;
    }
  }
  return true;
}
