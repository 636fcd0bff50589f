/**
 * The merge itself, inside the caller's transaction. Shared by the merge (which commits) and the
 * preview (which rolls back), so a preview reports exactly what the merge that follows does.
 * Every write goes through main's write view (main's version + 1): no reader sees it until the
 * caller bumps main's version in the same transaction.
 *
 * - fast_forward (main.version == branch.base_main_version): main's content becomes
 *   the branch's, positions included, by writing the head state of each entity the branch
 *   touched (fastForward.ts). Main has not moved, so nothing can conflict.
 * - replay: the branch's changes are compared with main's since the base (main at the
 *   branch's base_main_version, read directly), entity by entity and field by field
 *   (conflicts/), on sparse snapshots of the changed entities and their context; when nothing conflicts, its recorded batches are replayed onto main in
 *   order, a page of the trail at a time (replayBatches.ts), and the nodes the branch added
 *   take the branch's positions.
 * With conflicts, main may be half-written: the caller must not commit.
 */
import type { components } from '../../shared/api/openapi.generated';
import type { QueryRunner } from '../../shared/neo4j/namedQuery';
import type { BranchRecord } from '../branches';
import type { ApplierLimits, View } from '../graph';
import { branchView, mainView, refreshFindings, writePositions, writeViewOf } from '../graph';
import { fastForward } from './fastForward';
import { batchPages, BranchWrites, loadBranchWrites } from './branchHistory';
import type { MergeConflict } from './conflicts/conflictList';
import { MergeAnalysis } from './conflicts/mergeAnalysis';
import type { Snapshot } from './graphSnapshot';
import { lineChanges, lineIds, loadSparse, unionIds } from './changeSets';
import type { IdSets } from './changeSets';
import { loadThreeWay, ThreeWay, viewReader } from './threeWaySnapshots';
import { replayBatches } from './replayBatches';

export type MergeMode = components['schemas']['MergeMode'];

export interface MergeOutcome {
  mode: MergeMode;
  conflicts: MergeConflict[];
  /**
   * Main's entities the merge wrote (records opened or closed at its version), as they
   * were before it and are after it: sparse snapshots over the same ids. Null when
   * there are conflicts.
   */
  before: Snapshot | null;
  after: Snapshot | null;
  /** Main's write view: the version the merge wrote, published by bumping main's version. */
  view: View;
}

export function mergeModeOf(main: BranchRecord, branch: BranchRecord): MergeMode {
  return main.version === branch.base_main_version ? 'fast_forward' : 'replay';
}

/** The nodes the branch added take the branch's positions on main. */
export async function placeAddedNodes(
  tx: QueryRunner,
  view: View,
  branch: Snapshot,
  writes: BranchWrites,
): Promise<void> {
  const positions = [...writes.addedNodes]
    .map((id) => ({ id, position: branch.positions.get(id) }))
    .filter((p) => p.position !== undefined)
    .map((p) => ({ id: p.id, x: p.position?.x ?? 0, y: p.position?.y ?? 0 }));
  await writePositions(tx, view, positions);
}

/** Main's entities written at `view` (its write view over `mainNow`), before and after. */
export async function writtenChange(
  tx: QueryRunner,
  mainNow: View,
  view: View,
): Promise<{ before: Snapshot; after: Snapshot }> {
  const written = await lineChanges(tx, view.line, mainNow.ver, view.ver);
  return {
    before: await loadSparse(tx, mainNow, written),
    after: await loadSparse(tx, view, written),
  };
}

export interface ReplayPlan {
  analysis: MergeAnalysis;
  snaps: ThreeWay;
  writes: BranchWrites;
  /** The ids with records on the branch's line (its own change set). */
  onLine: IdSets;
}

/**
 * The three-way view of a replay: the change sets of both sides since the branch's base
 * (the branch's line, main's records changed in (base, main's version]) loaded as sparse
 * snapshots of main at the base (read directly), main now and the branch now.
 */
export async function planReplay(
  tx: QueryRunner,
  main: BranchRecord,
  branch: BranchRecord,
): Promise<ReplayPlan> {
  const onLine = await lineIds(tx, branch.id);
  const changed = unionIds(
    onLine,
    await lineChanges(tx, main.id, branch.base_main_version, main.version),
  );
  const snaps = await loadThreeWay(
    {
      base: viewReader(tx, mainView(main.id, branch.base_main_version)),
      main: viewReader(tx, mainView(main.id, main.version)),
      branch: viewReader(tx, branchView(branch, main.id, branch.version)),
    },
    changed,
  );
  const writes = await loadBranchWrites(tx, branch.id, branch.rebased_version ?? 0);
  return {
    analysis: new MergeAnalysis(snaps.base, snaps.main, snaps.branch, writes),
    snaps,
    writes,
    onLine,
  };
}

/**
 * Runs the merge of `branch` into `main` at main's write view (main's version + 1);
 * the caller publishes it by bumping main's version in the same transaction (or
 * rolls it back, for a preview). Reads only what changed: the branch's line, main's
 * records changed since the base, and their context (threeWaySnapshots.ts).
 */
export async function runMerge(
  tx: QueryRunner,
  main: BranchRecord,
  branch: BranchRecord,
  limits: ApplierLimits,
): Promise<MergeOutcome> {
  const mainNow = mainView(main.id, main.version);
  const view = writeViewOf(mainNow);
  const branchHead = branchView(branch, main.id, branch.version);
  const mode = mergeModeOf(main, branch);
  if (mode === 'fast_forward') {
    await fastForward(tx, view, branchHead);
    await refreshFindings(tx, view);
    return { mode, conflicts: [], ...(await writtenChange(tx, mainNow, view)), view };
  }
  const { analysis, snaps, writes } = await planReplay(tx, main, branch);
  const conflicts = analysis.detect();
  const refused = { mode, before: null, after: null, view };
  if (conflicts.length > 0) return { ...refused, conflicts };
  if (
    !(await replayBatches(
      tx,
      view,
      batchPages(tx, branch.id, undefined, branch.rebased_version ?? 0),
      analysis,
      limits,
    ))
  ) {
    return { ...refused, conflicts: analysis.conflicts.list() };
  }
  await placeAddedNodes(tx, view, snaps.branch, writes);
  await refreshFindings(tx, view);
  return { mode, conflicts: [], ...(await writtenChange(tx, mainNow, view)), view };
}
