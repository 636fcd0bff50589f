/**
 * The change trail's owner: every writer records its change through recordChangeCypher
 * (store/trailQueries.ts) with changeParams (changeRecord.ts), either inside its own
 * publishing statement (a batch, a revert) or through the functions here (an import, a
 * merge); every reader of the trail (the listing, a merge's replay, a node's history)
 * reads it here.
 */
import type { QueryRunner } from '../../../shared/neo4j/namedQuery';
import type { View } from '../view';
import { peekWritten } from '../writtenEntities';
import {
  listBatchesPage,
  listChangeSizes,
  listChangesByVersion,
  nodesInView,
  recordChange,
  recordMergedChange,
} from '../store/trailQueries';
import { recordRebase } from '../store/rebaseQueries';
import type { Delta } from '../deltas/deltaTypes';
import { ChangeEntry, changeParams, ChangeRecord } from './changeRecord';
import { cascadeTouches, touchesOf, TouchRow } from './touches';

/**
 * What a batch written through `view` touched: what its deltas name (touchesOf), and
 * what it changed without naming (cascadeTouches), from what the transaction wrote.
 * Called before the batch's findings take the written set (refreshFindings); only a
 * batch that wrote nodes no delta named costs a read (are they still in the view?).
 */
export async function batchTouches(
  tx: QueryRunner,
  view: View,
  deltas: readonly Delta[],
): Promise<TouchRow[]> {
  const written = peekWritten(tx, view);
  const touches = touchesOf(deltas);
  const named = new Set(touches.map((t) => t.id));
  const unnamed = [...written.GNode].filter((id) => !named.has(id));
  const present = new Set<string>();
  if (unnamed.length > 0) {
    const rows = await tx.run<{ id: string; exists: boolean }>(nodesInView, { view, ids: unnamed });
    for (const r of rows) if (r.exists) present.add(r.id);
  }
  return cascadeTouches(touches, { nodes: unnamed, edges: written.Edge }, present);
}

/** Records `entry` with its touches on branch `branchId` at the branch's version. */
export async function appendChange(
  tx: QueryRunner,
  branchId: string,
  entry: ChangeEntry,
  touches: TouchRow[],
): Promise<number> {
  const row = await tx.one<{ version: number }>(recordChange, {
    branchId,
    ...changeParams(entry, touches),
  });
  if (!row) throw new Error(`the change was not recorded: no branch ${branchId}`);
  return row.version;
}

/** Records a merge on main (already advanced to the merge's version): a bounded
 * summary of the merged branch's trail, and that trail's touches as main's. */
export async function appendMerge(
  tx: QueryRunner,
  mainId: string,
  entry: ChangeEntry & { merged: NonNullable<ChangeEntry['merged']> },
): Promise<void> {
  const { change } = changeParams(entry, []);
  const row = await tx.one(recordMergedChange, { branchId: mainId, change });
  if (!row) throw new Error('the merge was not recorded on main');
}

/** One page of a branch's batches and reverts after `afterVersion`, oldest first. */
export async function trailBatchPage(
  tx: QueryRunner,
  branchId: string,
  afterVersion: number,
  limit: number,
): Promise<{ version: number; deltas: string | null }[]> {
  return tx.run<{ version: number; deltas: string | null }>(listBatchesPage, {
    branchId,
    afterVersion,
    limit,
  });
}

/**
 * Recorded delta bytes one page of the trail holds at most (beyond its first
 * change): four batches of the largest size, 8 MiB by default.
 */
export function pageBytes(maxBatchBytes: number): number {
  return 4 * maxBatchBytes;
}

/** How many of the sized rows (newest first) fit in the budget; at least one. */
export function fitting(sizes: number[], budget: number): number {
  let total = 0;
  let taken = 0;
  for (const bytes of sizes) {
    if (taken > 0 && total + bytes > budget) break;
    total += bytes;
    taken += 1;
  }
  return taken;
}

/**
 * One page of a branch's trail, newest first: at most `limit` changes, and at most
 * pageBytes() of recorded deltas beyond the first (each change is bounded: a batch by
 * maxBatchBytes, a merge by its summary), so a page's memory is bounded.
 */
export async function readTrailPage(
  tx: QueryRunner,
  branchId: string,
  page: { limit: number; offset: number },
  maxBatchBytes: number,
): Promise<{ changes: ChangeRecord[]; hasMore: boolean }> {
  const sized = await tx.run<{ version: number; bytes: number }>(listChangeSizes, {
    branchId,
    offset: page.offset,
    limit: page.limit,
  });
  const wanted = sized.slice(0, page.limit);
  const taken = fitting(
    wanted.map((r) => r.bytes),
    pageBytes(maxBatchBytes),
  );
  const rows = await tx.run<{ change: ChangeRecord }>(listChangesByVersion, {
    branchId,
    versions: wanted.slice(0, taken).map((r) => r.version),
  });
  return { changes: rows.map((r) => r.change), hasMore: sized.length > taken };
}

/**
 * Publishes a rebase of `branchId` (at version `expected`, locked by the caller) onto
 * main's version in `entry.rebase`: the branch's version advances, its base moves and the
 * base it leaves is kept for the versions before (view.ts baseAt), its usage is saved,
 * and the rebase is recorded with `touches` (what it changed on the branch). Returns
 * the branch record after it.
 */
export async function appendRebase<B>(
  tx: QueryRunner,
  branchId: string,
  expected: number,
  entry: ChangeEntry & { rebase: NonNullable<ChangeEntry['rebase']> },
  usage: { nodes: number; edges: number; bytes: number },
  touches: TouchRow[],
): Promise<B> {
  const row = await tx.one<{ branch: B }>(recordRebase, {
    branchId,
    expected,
    base: entry.rebase.base,
    now: entry.now,
    ...usage,
    ...changeParams(entry, touches),
  });
  if (!row) throw new Error(`the rebase was not recorded: branch ${branchId} moved`);
  return row.branch;
}
