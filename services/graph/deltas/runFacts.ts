/**
 * What a run of add_node/add_edge deltas needs to know of the view before it is checked
 * (addRunChecker.ts): which of its ids are in use, the ports its wires name, the sibling
 * names it takes, its parents' kinds, depths and kept orphan_node findings, the wires
 * already on the ports it creates, and whether the view keeps findings. One statement
 * reads them (store/addRunQueries.ts), through a write view, or through the write view
 * of a branch's row in the statement that takes the branch's lock and writes the run
 * (a batch's first: leadingRun.ts).
 */
import type { QueryRunner } from '../../../shared/neo4j/namedQuery';
import { CHANNELS, NodeKind } from '../../../shared/model/nodeModel';
import { prefetchAddRun } from '../store/addRunQueries';
import { View, viewBefore } from '../view';
import { ancestorsOf, firstChainSteps, LevelNode } from './ancestry';
import { nameIsUnique } from './invariants';
import type { Addition } from './deltaTypes';
import type { RunRecords } from './runRows';
import type { WireRow } from './wiresOnNewPorts';

/** What the view holds under an id the run names: found there as something. */
export interface Fact {
  id: string;
  /** The kind of the node, asked of the parents the run names. */
  nodeKind: NodeKind | null;
  /** The port's channel, owner and owner kind, asked of the wire ends the run names. */
  portChannel: string | null;
  portNode: string | null;
  portNodeKind: NodeKind | null;
  /** The port's type, and for an input port whether its unsatisfied_input finding is kept. */
  portType: string | null;
  unsatisfiedKept: boolean;
  /** For a parent: whether its orphan_node finding is kept. */
  orphanKept: boolean;
}

/** The key of a sibling name: its scope (the parent id, or empty at the top) and name. */
export const nameKey = (scope: string, name: string) => `${scope}\u0000${name}`;

/** What the store knows of the ids and sibling names a run touches (prefetchAddRun). */
export interface RunFacts {
  facts: Fact[];
  /** Nesting depth (1 = top level) of the existing nodes the run parents nodes to. */
  depths: { id: string; depth: number }[];
  takenNames: string[];
  /** The wires the view had on the ports the run creates, with their ends then. */
  wires: WireRow[];
  /** Whether the view keeps its findings as records. */
  findingsKept: boolean;
  /** The view the facts were read through. */
  view: View;
  /**
   * Whether the statement that read the facts also wrote the run's records (runRows.ts)
   * through that view, after reading them: the checks then decide whether the batch
   * keeps them.
   */
  prewritten: boolean;
  /**
   * The run's records as built from its deltas (runRows.ts), when the statement that read
   * the facts had them: every node state in them is of its kind's shape, and the checks
   * take them instead of building them again.
   */
  records?: RunRecords;
}

/**
 * What the facts read of `run` asks (its `$asked` parameter): each id asked only what the
 * checks ask of it. Its lists are empty or not from one run to the next: inside one map
 * they do not make Neo4j plan the statement again for each (paramShapes.ts).
 */
export function runFactsAsked(run: Addition[]) {
  // whether an id the run adds is in use (as anything), the kind of a parent, the port a
  // wire end names unless an earlier delta of the run created it (the checks take that
  // one from the run)
  const ids = new Set<string>();
  const parentIds = new Set<string>();
  const newPortIds = new Set<string>();
  const handles = new Set<string>();
  const names: { scope: string; name: string; key: string }[] = [];
  for (const d of run) {
    if (d.type === 'add_node') {
      ids.add(d.node.id);
      if (d.node.parent_id) parentIds.add(d.node.parent_id);
      for (const c of CHANNELS)
        for (const p of d.node.data[c] ?? []) {
          ids.add(p.id);
          newPortIds.add(p.id);
        }
      const name = d.node.data.name ?? '';
      const scope = d.node.parent_id ?? '';
      if (nameIsUnique(name)) names.push({ scope, name, key: nameKey(scope, name) });
    } else {
      ids.add(d.edge.id);
      for (const handle of [d.edge.source_handle, d.edge.target_handle])
        if (handle && !newPortIds.has(handle)) handles.add(handle);
    }
  }
  return {
    ids: [...ids],
    handles: [...handles],
    names,
    parentIds: [...parentIds],
    newPortIds: [...newPortIds],
  };
}

/** The row the facts read answers (store/addRunQueries.ts prefetchThrough). */
export type RunFactsRow = {
  usedIds: string[];
  ports: {
    id: string;
    channel: string;
    nodeId: string | null;
    nodeKind: NodeKind | null;
    type: string | null;
    unsatisfiedKept: boolean;
  }[];
  takenNames: string[];
  /** The parents that exist and their first ancestors (ancestry.ts firstChainSteps). */
  parents: (LevelNode & { kind: NodeKind })[];
  ancestors: LevelNode[];
  /** The parents whose orphan_node finding is kept. */
  orphansKept: string[];
  wires: WireRow[];
  findingsKept: boolean;
  view: View;
  prewritten?: boolean;
  recorded?: { version: number; opened: string[]; closed: string[] } | null;
};

/** Reads the facts `run` needs through the write view `view`. */
export async function readRunFacts(
  tx: QueryRunner,
  view: View,
  run: Addition[],
  maxDepth: number,
): Promise<RunFacts> {
  const row = await tx.one<RunFactsRow>(prefetchAddRun, { asked: runFactsAsked(run), view });
  if (!row) throw new Error('prefetchAddRun answered no row');
  return factsOf(tx, row, maxDepth);
}

/** The facts of the row the facts read answered. */
export async function factsOf(
  tx: QueryRunner,
  row: RunFactsRow,
  maxDepth: number,
): Promise<RunFacts> {
  // the nesting depth of the existing nodes the run parents nodes to: the statement
  // took the first steps up from each; a parent at the deepest nesting allowed has
  // maxDepth - 1 ancestors, and one more tells
  const firstSteps = firstChainSteps(row.parents, row.ancestors);
  const parents = firstSteps.map((c) => c.id);
  const prewritten = row.prewritten === true;
  // deeper steps are read as the view was before the statement wrote the run, as the
  // first steps were: one of the run's nodes may reuse an ancestor's id (a refused batch)
  const before = prewritten ? viewBefore(row.view) : row.view;
  const chains = await ancestorsOf(tx, before, parents, Math.max(maxDepth, 1), firstSteps);
  const depths = parents.map((id) => ({ id, depth: (chains.get(id)?.length ?? 0) + 1 }));
  const facts = new Map<string, Fact>();
  const found = (id: string): Fact => {
    let fact = facts.get(id);
    if (!fact) {
      fact = {
        id,
        nodeKind: null,
        portChannel: null,
        portNode: null,
        portNodeKind: null,
        portType: null,
        unsatisfiedKept: false,
        orphanKept: false,
      };
      facts.set(id, fact);
    }
    return fact;
  };
  for (const id of row.usedIds) found(id);
  const orphansKept = new Set(row.orphansKept);
  for (const parent of row.parents)
    Object.assign(found(parent.id), {
      nodeKind: parent.kind,
      orphanKept: orphansKept.has(parent.id),
    });
  for (const port of row.ports)
    Object.assign(found(port.id), {
      portChannel: port.channel,
      portNode: port.nodeId,
      portNodeKind: port.nodeKind,
      portType: port.type,
      unsatisfiedKept: port.unsatisfiedKept,
    });
  return {
    facts: [...facts.values()],
    depths,
    takenNames: row.takenNames,
    wires: row.wires,
    findingsKept: row.findingsKept,
    view: row.view,
    prewritten,
  };
}
