/**
 * Change sets and sparse snapshots: what a merge, a diff or a preview reads instead of
 * whole graphs. A change set is the ids of the entities a line changed (per kind):
 *   - a working branch: every id with a record on its line (it stores only what it
 *     changed, copy-on-write, with tombstones for deletions);
 *   - a line between two of its versions: the ids with a record opened or closed
 *     in (from, to].
 * A sparse snapshot (graphSnapshot.ts, `sparse: true`) holds the states of given ids in
 * one view; comparing two views on the union of their change sets gives the same
 * answer as comparing whole graphs, since every other entity is one shared record.
 */
import type { QueryRunner } from '../../shared/neo4j/namedQuery';
import type { NodeRecord, PortRecord, StateLabel, View } from '../graph';
import {
  addEdgeRecord,
  addNodeRecord,
  addPortRecord,
  EdgeImage,
  emptySnapshot,
  ENTITY_KINDS,
  EntityKind,
  PortImage,
  Snapshot,
} from './graphSnapshot';
import {
  LINE_CHANGED_IDS,
  LINE_IDS,
  PORTS_OF_NODES,
  STATES_BY_ID,
  WIRES_INTO_PORTS,
} from './store/changeSetQueries';

export type IdSets = Record<EntityKind, Set<string>>;

export const LABEL: Record<EntityKind, StateLabel> = { node: 'GNode', port: 'Port', edge: 'Edge' };

/** Ids per statement when reading a change set or loading states by id. */
export const ID_PAGE = 2000;

export function emptyIds(): IdSets {
  return { node: new Set(), port: new Set(), edge: new Set() };
}

export function unionIds(...sets: IdSets[]): IdSets {
  const out = emptyIds();
  for (const set of sets)
    for (const kind of ENTITY_KINDS) for (const id of set[kind]) out[kind].add(id);
  return out;
}

export function idCount(ids: IdSets): number {
  return ids.node.size + ids.port.size + ids.edge.size;
}

/** The ids with records on `line` (a working branch's change), read a page at a time. */
export async function lineIds(tx: QueryRunner, line: string): Promise<IdSets> {
  const ids = emptyIds();
  for (const kind of ENTITY_KINDS) {
    let after = '';
    for (;;) {
      const rows = await tx.run<{ id: string }>(LINE_IDS[LABEL[kind]], {
        line,
        after,
        limit: ID_PAGE,
      });
      for (const r of rows) ids[kind].add(r.id);
      if (rows.length < ID_PAGE) break;
      after = rows[rows.length - 1].id;
    }
  }
  return ids;
}

/** The ids whose state on `line` differs between versions `from` and `to` of that line. */
export async function lineChanges(
  tx: QueryRunner,
  line: string,
  from: number,
  to: number,
): Promise<IdSets> {
  const ids = emptyIds();
  if (to <= from) return ids;
  for (const kind of ENTITY_KINDS) {
    const rows = await tx.run<{ id: string }>(LINE_CHANGED_IDS[LABEL[kind]], { line, from, to });
    for (const r of rows) ids[kind].add(r.id);
  }
  return ids;
}

async function inPages<T>(
  ids: Iterable<string>,
  read: (page: string[]) => Promise<T[]>,
): Promise<T[]> {
  const all = [...ids];
  const out: T[] = [];
  for (let i = 0; i < all.length; i += ID_PAGE)
    out.push(...(await read(all.slice(i, i + ID_PAGE))));
  return out;
}

/** Adds to `snap` the states in `view` of the given ids (ids the view lacks stay absent). */
export async function addStates(
  tx: QueryRunner,
  view: View,
  snap: Snapshot,
  ids: Partial<Record<EntityKind, Iterable<string>>>,
): Promise<void> {
  const wanted = (kind: EntityKind) =>
    [...(ids[kind] ?? [])].filter((id) => !(snap[kind] as Map<string, unknown>).has(id));
  const nodes = await inPages(wanted('node'), (page) =>
    tx.run<{ node: NodeRecord }>(STATES_BY_ID.GNode, { view, ids: page }),
  );
  for (const { node } of nodes) addNodeRecord(snap, node);
  const ports = await inPages(wanted('port'), (page) =>
    tx.run<{ port: PortRecord }>(STATES_BY_ID.Port, { view, ids: page }),
  );
  for (const { port } of ports) addPortRecord(snap, port);
  const edges = await inPages(wanted('edge'), (page) =>
    tx.run<{ edge: EdgeImage }>(STATES_BY_ID.Edge, { view, ids: page }),
  );
  for (const { edge } of edges) addEdgeRecord(snap, edge);
}

/** A sparse snapshot of `view` holding the given ids. */
export async function loadSparse(tx: QueryRunner, view: View, ids: IdSets): Promise<Snapshot> {
  const snap: Snapshot = { ...emptySnapshot(), sparse: true };
  await addStates(tx, view, snap, ids);
  return snap;
}

/** The ports of the given nodes visible in `view`, as images. */
export async function portsOf(
  tx: QueryRunner,
  view: View,
  nodeIds: Iterable<string>,
): Promise<PortImage[]> {
  const rows = await inPages(nodeIds, (page) =>
    tx.run<{ port: PortRecord }>(PORTS_OF_NODES, { view, ids: page }),
  );
  const snap = emptySnapshot();
  for (const { port } of rows) addPortRecord(snap, port);
  return [...snap.port.values()];
}

/** The wires into the given ports visible in `view`, as images. */
export async function wiresInto(
  tx: QueryRunner,
  view: View,
  portIds: Iterable<string>,
): Promise<EdgeImage[]> {
  const rows = await inPages(portIds, (page) =>
    tx.run<{ edge: EdgeImage }>(WIRES_INTO_PORTS, { view, ids: page }),
  );
  const snap = emptySnapshot();
  for (const { edge } of rows) addEdgeRecord(snap, edge);
  return [...snap.edge.values()];
}
