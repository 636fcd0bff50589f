/**
 * Fast-forward: main has not moved since the fork (main's version is the branch's
 * base_main_version), so main becomes the branch's graph. The branch's line holds only
 * what it changed, so for each entity with a record on it, its head state is written
 * onto main at main's write view (upsertStates with `replace`), or removed from main
 * when the branch deleted it; positions are properties of the node records and come
 * along. Every other entity is the record main and the branch already share. The cost
 * is the branch's change, read and written a page of ids at a time.
 */
import type { QueryRunner } from '../../shared/neo4j/namedQuery';
import { removeStates, upsertStates } from '../graph';
import type { StateLabel, StateRow, View } from '../graph';
import { LINE_IDS } from './store/changeSetQueries';
import { HEAD_STATES } from './store/fastForwardQueries';

/** The record labels, in the order a fast-forward writes them. */
export const STATE_LABELS: readonly StateLabel[] = ['GNode', 'Port', 'Edge'];

/** Ids per page of the branch's change. */
export const FAST_FORWARD_PAGE = 1000;

/** Record bookkeeping that is the line's, not the entity's. */
const BOOKKEEPING = new Set(['branch_id', 'vfrom', 'vto', 'gone']);

/** The ids with records on `line`, a page at a time in id order. */
export async function* touchedIdPages(
  tx: QueryRunner,
  label: StateLabel,
  line: string,
  pageSize = FAST_FORWARD_PAGE,
): AsyncGenerator<string[]> {
  let after = '';
  for (;;) {
    const rows = await tx.run<{ id: string }>(LINE_IDS[label], {
      line,
      after,
      limit: pageSize,
    });
    if (rows.length === 0) return;
    yield rows.map((r) => r.id);
    if (rows.length < pageSize) return;
    after = rows[rows.length - 1].id;
  }
}

/**
 * Writes the branch's head state of the entities `ids` (labelled `label`, each with
 * records on the branch's line) onto main through `mainWrite`; returns how many.
 */
export async function fastForwardPage(
  tx: QueryRunner,
  mainWrite: View,
  branch: View,
  label: StateLabel,
  ids: string[],
): Promise<number> {
  const rows = await tx.run<{ state: Record<string, unknown> & { id: string } }>(
    HEAD_STATES[label],
    { view: branch, ids },
  );
  const removed: string[] = [];
  const written: StateRow[] = [];
  for (const { state } of rows) {
    if (state.gone === true) {
      removed.push(state.id);
      continue;
    }
    const props = Object.fromEntries(
      Object.entries(state).filter(([key]) => !BOOKKEEPING.has(key)),
    );
    written.push({ id: state.id, props, replace: true });
  }
  return (
    (await removeStates(tx, mainWrite, label, removed)) +
    (await upsertStates(tx, mainWrite, label, written))
  );
}

/**
 * Writes the branch's head state of every entity it touched onto main through
 * `mainWrite` (main's write view); `branch` is the branch's view at its head.
 * Returns how many entities were written or removed.
 */
export async function fastForward(tx: QueryRunner, mainWrite: View, branch: View): Promise<number> {
  let count = 0;
  for (const label of STATE_LABELS) {
    for await (const ids of touchedIdPages(tx, label, branch.line)) {
      count += await fastForwardPage(tx, mainWrite, branch, label, ids);
    }
  }
  return count;
}
