/**
 * The merge itself, inside the caller's transaction. Shared by the merge (which commits) and the
 * preview (which rolls back), so a preview reports exactly what the merge that follows does.
 *
 * - fast_forward (main.version == branch.base_main_version): main's content becomes
 *   the branch's, positions included, by writing only the difference (fastForward.ts).
 *   Main has not moved, so nothing can conflict.
 * - replay: the branch's changes are compared with main's since the base, entity by
 *   entity and field by field (conflicts/); when nothing conflicts, its recorded
 *   batches are replayed onto main in order, a page of the trail at a time
 *   (replayBatches.ts), and the nodes the
 *   branch added take the branch's positions.
 * With conflicts, main may be half-written: the caller must not commit.
 */
import type { components } from '../../shared/api/openapi.generated';
import type { QueryRunner } from '../../shared/neo4j/namedQuery';
import type { BranchRecord } from '../branches';
import type { ApplierLimits } from '../graph';
import { writePositions } from '../graph';
import { loadBase } from './baseSnapshot';
import { fastForward } from './fastForward';
import { batchPages, BranchWrites, loadBranchWrites } from './branchHistory';
import type { MergeConflict } from './conflicts/conflictList';
import { MergeAnalysis } from './conflicts/mergeAnalysis';
import { loadSnapshot, Snapshot } from './graphSnapshot';
import { replayBatches } from './replayBatches';

export type MergeMode = components['schemas']['MergeMode'];

export interface MergeOutcome {
  mode: MergeMode;
  conflicts: MergeConflict[];
  /** Main before the merge. */
  before: Snapshot;
  /** Main after the merge; null when there are conflicts. */
  after: Snapshot | null;
}

export function mergeModeOf(main: BranchRecord, branch: BranchRecord): MergeMode {
  return main.version === branch.base_main_version ? 'fast_forward' : 'replay';
}

async function placeAddedNodes(
  tx: QueryRunner,
  mainId: string,
  branch: Snapshot,
  writes: BranchWrites,
): Promise<void> {
  const positions = [...writes.addedNodes]
    .map((id) => ({ id, position: branch.positions.get(id) }))
    .filter((p) => p.position !== undefined)
    .map((p) => ({ id: p.id, x: p.position?.x ?? 0, y: p.position?.y ?? 0 }));
  await writePositions(tx, mainId, positions);
}

export async function runMerge(
  tx: QueryRunner,
  main: BranchRecord,
  branch: BranchRecord,
  limits: ApplierLimits,
): Promise<MergeOutcome> {
  const before = await loadSnapshot(tx, main.id);
  const branchNow = await loadSnapshot(tx, branch.id);
  const mode = mergeModeOf(main, branch);
  if (mode === 'fast_forward') {
    await fastForward(tx, main.id, branch.id, before, branchNow);
    return { mode, conflicts: [], before, after: branchNow };
  }
  const base = await loadBase(tx, main.id, branch.base_main_version, before);
  const writes = await loadBranchWrites(tx, branch.id);
  const analysis = new MergeAnalysis(base, before, branchNow, writes);
  const conflicts = analysis.detect();
  if (conflicts.length > 0) return { mode, conflicts, before, after: null };
  if (!(await replayBatches(tx, main.id, batchPages(tx, branch.id), analysis, limits))) {
    return { mode, conflicts: analysis.conflicts.list(), before, after: null };
  }
  await placeAddedNodes(tx, main.id, branchNow, writes);
  return { mode, conflicts: [], before, after: await loadSnapshot(tx, main.id) };
}
