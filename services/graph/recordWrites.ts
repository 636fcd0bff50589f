/**
 * Writes of graph content through a write view (view.ts writeViewOf): the delta
 * engine, merge, graph-file import and revert write nodes, ports and wires only
 * through these, so the copy-on-write invariants of the versioned store hold in one
 * place (store/recordWriteQueries.ts). Each write is noted (writtenEntities.ts) so that the
 * version's findings can follow it (findingRecords.ts).
 */
import type { QueryRunner } from '../../shared/neo4j/namedQuery';
import {
  createGraphStates,
  createNewLineStates,
  placeNodeStates,
  removeEdgeStates,
  removeFindingStates,
  removeNodeStates,
  removePortStates,
  upsertEdgeStates,
  upsertFindingStates,
  upsertNodeStates,
  upsertPortStates,
} from './store/recordWriteQueries';
import type { StateLabel } from './store/visibility';
import type { View } from './view';
import { noteWritten } from './writtenEntities';

/** One entity's new state: `props` over its visible state, or alone when `replace`. */
export interface StateRow {
  id: string;
  props: Record<string, unknown>;
  replace?: boolean;
}

const UPSERT = { GNode: upsertNodeStates, Port: upsertPortStates, Edge: upsertEdgeStates };
const REMOVE = { GNode: removeNodeStates, Port: removePortStates, Edge: removeEdgeStates };

/** Writes new states of entities at the write view's version; returns how many. */
export async function upsertStates(
  tx: QueryRunner,
  view: View,
  label: StateLabel,
  rows: readonly StateRow[],
): Promise<number> {
  if (rows.length === 0) return 0;
  noteWritten(
    tx,
    view,
    label,
    rows.map((r) => r.id),
  );
  const row = await tx.one<{ written: number }>(UPSERT[label], { view, rows });
  return row?.written ?? 0;
}

/** A new entity's first state in a view. */
export interface NewRow {
  id: string;
  props: Record<string, unknown>;
}

/**
 * Writes nodes, ports and wires the view does not have (the caller checked every id
 * unused in it), in that order, in one statement (a run of additions); returns how many
 * nodes, ports and wires.
 */
export async function createGraph(
  tx: QueryRunner,
  view: View,
  rows: {
    nodes: readonly NewRow[];
    ports: readonly NewRow[];
    edges: readonly NewRow[];
  },
): Promise<{ nodes: number; ports: number; edges: number }> {
  const { nodes, ports, edges } = rows;
  if (nodes.length + ports.length + edges.length === 0) return { nodes: 0, ports: 0, edges: 0 };
  noteGraphWritten(tx, view, rows);
  const row = await tx.one<{ nodes: number; ports: number; edges: number }>(createGraphStates, {
    view,
    nodes,
    ports,
    edges,
  });
  return row ?? { nodes: 0, ports: 0, edges: 0 };
}

/**
 * Writes the first records of a new line, one no record was ever written on (an
 * imported main's before it is published): nodes, ports, wires and kept findings, each
 * new, with nothing to close and no later refresh of findings to note them for.
 */
export async function createNewLineRecords(
  tx: QueryRunner,
  view: View,
  rows: {
    nodes: readonly NewRow[];
    ports: readonly NewRow[];
    edges: readonly NewRow[];
    findings: readonly NewRow[];
  },
): Promise<void> {
  const { nodes, ports, edges, findings } = rows;
  if (nodes.length + ports.length + edges.length + findings.length === 0) return;
  await tx.run(createNewLineStates, { view, nodes, ports, edges, findings });
}

/**
 * Notes the nodes, ports and wires of `rows` as written in `view` by this transaction
 * (writtenEntities.ts), for a writer that wrote them in a statement of its own
 * (createGraph, or the statement that takes a batch's lock).
 */
export function noteGraphWritten(
  tx: QueryRunner,
  view: View,
  rows: { nodes: readonly NewRow[]; ports: readonly NewRow[]; edges: readonly NewRow[] },
): void {
  for (const [label, list] of [
    ['GNode', rows.nodes],
    ['Port', rows.ports],
    ['Edge', rows.edges],
  ] as const) {
    if (list.length > 0)
      noteWritten(
        tx,
        view,
        label,
        list.map((r) => r.id),
      );
  }
}

/** Removes entities from the write view (close on main, tombstone on a branch). The
 * caller removes only entities visible in the view. */
export async function removeStates(
  tx: QueryRunner,
  view: View,
  label: StateLabel,
  ids: readonly string[],
): Promise<number> {
  if (ids.length === 0) return 0;
  noteWritten(tx, view, label, ids);
  const row = await tx.one<{ removed: number }>(REMOVE[label], { view, ids });
  return row?.removed ?? 0;
}

/** Sets node positions in the view (not versioned); returns how many nodes exist. */
export async function placeNodes(
  tx: QueryRunner,
  view: View,
  positions: readonly { id: string; x: number; y: number }[],
): Promise<number> {
  if (positions.length === 0) return 0;
  const row = await tx.one<{ written: number }>(placeNodeStates, { view, positions });
  return row?.written ?? 0;
}

/** Writes kept findings (findingRecords.ts) at the write view's version: each row's
 * props replace the finding's state. */
export async function upsertFindings(
  tx: QueryRunner,
  view: View,
  rows: readonly StateRow[],
): Promise<void> {
  if (rows.length > 0) await tx.run(upsertFindingStates, { view, rows });
}

/** Removes kept findings visible in the write view (closed on main, tombstoned on a branch). */
export async function removeFindings(
  tx: QueryRunner,
  view: View,
  ids: readonly string[],
): Promise<void> {
  if (ids.length > 0) await tx.run(removeFindingStates, { view, ids });
}
