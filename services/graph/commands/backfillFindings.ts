/**
 * Kept findings for stores written before findings were kept. Such a main has no
 * `findings_from`, so every validate and merge preview of it computes its findings over
 * the whole graph. The worker's sweep gives it kept findings once: it computes them at
 * main's current version, in small transactions, and publishes them by setting
 * `findings_from` in one small transaction; from then on each write refreshes only what
 * it reached, and new forks keep theirs too. Branches forked before stay as they were
 * (findings computed whole) until they are merged or discarded.
 *
 * Nobody reads a line's kept findings before `findings_from` is set, so records written
 * by a run that a merge overtakes (main's version moved: the run's findings describe an
 * older version) are never seen: they are removed and the next sweep starts again. A
 * claim on main's Branch record keeps two workers from writing the same findings.
 */
import { randomUUID } from 'node:crypto';
import type { Executor } from '../../../shared/neo4j/executor';
import { recomputeFindings } from '../findingRecords';
import { levelBelow } from '../store/deltaQueries';
import {
  claimBackfill,
  clearLineFindings,
  edgeIdsOf,
  lockMainRecord,
  mainsWithoutKeptFindings,
  publishKeptFindings,
  releaseBackfill,
  topLevelNodeIds,
} from '../store/findingBackfillQueries';
import { mainView, View } from '../view';
import type { Written } from '../writtenEntities';

/** A claim older than this is taken to belong to a run that died. */
const CLAIM_STALE_MS = 60 * 60 * 1000;

export interface BackfillResult {
  /** Mains whose findings are kept from now on. */
  kept: number;
  /** Mains a merge moved during the run (or another run holds): tried again later. */
  deferred: number;
}

const only = (label: keyof Written, ids: string[]): Written => ({
  GNode: new Set(label === 'GNode' ? ids : []),
  Port: new Set(label === 'Port' ? ids : []),
  Edge: new Set(label === 'Edge' ? ids : []),
});

/**
 * Computes and writes the kept findings of every entity `view` sees, `chunk` entities a
 * transaction: nodes a level at a time from the top, so that a node's parent is kept
 * before it (its orphan_node record answers for the ancestors), then the ports of those
 * nodes, then the wires. Used on a line whose findings are not kept yet (a bulk load, a
 * backfill), written at the view's own version.
 */
export async function keepFindingsOf(executor: Executor, view: View, chunk: number): Promise<void> {
  const write = (written: Written) =>
    executor.writeTx((tx) => recomputeFindings(tx, view, written, true));
  const [top] = await executor.read<{ ids: string[] }>(topLevelNodeIds, { view });
  let level = top?.ids ?? [];
  const ports: string[] = [];
  while (level.length > 0) {
    const next: string[] = [];
    for (let i = 0; i < level.length; i += chunk) {
      const part = level.slice(i, i + chunk);
      await write(only('GNode', part));
      const [below] = await executor.read<{ childIds: string[]; portIds: string[] }>(levelBelow, {
        view,
        ids: part,
      });
      for (const id of below?.childIds ?? []) next.push(id);
      for (const id of below?.portIds ?? []) ports.push(id);
    }
    level = next;
  }
  for (let i = 0; i < ports.length; i += chunk)
    await write(only('Port', ports.slice(i, i + chunk)));
  const [wires] = await executor.read<{ ids: string[] }>(edgeIdsOf, { view });
  const edges = wires?.ids ?? [];
  for (let i = 0; i < edges.length; i += chunk)
    await write(only('Edge', edges.slice(i, i + chunk)));
}

/** Gives up to `limit` mains without kept findings their kept findings (see above). */
export async function backfillKeptFindings(
  executor: Executor,
  options: { chunk: number; limit?: number; now?: number },
): Promise<BackfillResult> {
  const mains = await executor.read<{ id: string }>(mainsWithoutKeptFindings, {
    limit: options.limit ?? 20,
  });
  const result: BackfillResult = { kept: 0, deferred: 0 };
  for (const { id } of mains) {
    const now = options.now ?? Date.now();
    const claim = randomUUID();
    const [claimed] = await executor.writeTx(async (tx) => {
      await tx.run(lockMainRecord, { mainId: id });
      return tx.run<{ version: number }>(claimBackfill, {
        mainId: id,
        claim,
        now: new Date(now).toISOString(),
        staleBefore: new Date(now - CLAIM_STALE_MS).toISOString(),
      });
    });
    if (!claimed) {
      result.deferred += 1;
      continue;
    }
    // leftovers of a run that died are seen by nobody; they would collide with this run's
    await executor.autoCommit(clearLineFindings, { line: id });
    await keepFindingsOf(executor, mainView(id, claimed.version), options.chunk);
    const [published] = await executor.write<{ done: boolean }>(publishKeptFindings, {
      mainId: id,
      version: claimed.version,
      claim,
    });
    if (published?.done) {
      result.kept += 1;
      continue;
    }
    result.deferred += 1;
    if (!published) continue; // another run holds main now: what is on the line is its
    await executor.autoCommit(clearLineFindings, { line: id });
    await executor.write(releaseBackfill, { mainId: id, claim });
  }
  return result;
}
