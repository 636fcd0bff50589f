/**
 * What a merge written at main's write view changes on main, for a staged merge: its
 * usage (the quotas) and the counts of entities added, changed and removed, measured a
 * page of ids at a time, each page in a read transaction of its own. A staged merge's
 * publish is one small transaction; measuring a 100k-node change inside it would not be.
 * Every entity is measured by itself (its own image before and after), so the pages add up.
 */
import type { Executor } from '../../shared/neo4j/executor';
import type { View } from '../graph';
import { emptyIds, lineChanges, loadSparse } from './changeSets';
import { contentBytes, ENTITY_KINDS } from './graphSnapshot';
import { countsOf, diffSnapshots } from './snapshotDiff';

/** Ids per measured page. */
const PAGE = 5000;

export type Counts = ReturnType<typeof countsOf>;

export interface WrittenMeasure {
  /** Change of main's node and wire counts and of its content's JSON size. */
  usage: { nodes: number; edges: number; bytes: number };
  counts: Counts;
}

function addCounts(total: Counts, more: Counts): void {
  for (const kind of ['nodes', 'ports', 'edges'] as const) {
    total[kind].added += more[kind].added;
    total[kind].changed += more[kind].changed;
    total[kind].removed += more[kind].removed;
  }
}

export async function measureWritten(
  executor: Executor,
  mainNow: View,
  view: View,
): Promise<WrittenMeasure> {
  const written = await executor.readTx((tx) => lineChanges(tx, view.line, mainNow.ver, view.ver));
  const usage = { nodes: 0, edges: 0, bytes: 0 };
  const zero = () => ({ added: 0, changed: 0, removed: 0 });
  const counts: Counts = { nodes: zero(), ports: zero(), edges: zero() };
  for (const kind of ENTITY_KINDS) {
    const ids = [...written[kind]];
    for (let i = 0; i < ids.length; i += PAGE) {
      const page = { ...emptyIds(), [kind]: new Set(ids.slice(i, i + PAGE)) };
      await executor.readTx(async (tx) => {
        const before = await loadSparse(tx, mainNow, page);
        const after = await loadSparse(tx, view, page);
        usage.nodes += after.node.size - before.node.size;
        usage.edges += after.edge.size - before.edge.size;
        usage.bytes += contentBytes(after) - contentBytes(before);
        addCounts(counts, countsOf(diffSnapshots(before, after)));
      });
    }
  }
  return { usage, counts };
}
