/**
 * The three snapshots a replay merge is judged on (main at the branch's base, main now,
 * the branch now), sparse: each holds the entities changed on either side (the union of
 * both change sets, changeSets.ts) and the context the conflict rules (conflicts/) read
 * around them, and nothing else of the graph:
 *   - the ports of changed nodes (a port list replaced on the branch is compared channel
 *     by channel);
 *   - the ports at both ends of changed wires, and every wire into the target ports of
 *     changed wires (an input port's wiring is compared as a whole);
 *   - the nodes of loaded ports and the ancestor chains of loaded nodes (conflict paths,
 *     and containment cycles that moves on both sides would close).
 * An entity outside the union is unchanged on both sides, so its state is the same in all
 * three views: context is read once and shared by the three snapshots. An id absent from
 * all three means "unchanged and not needed", never "deleted".
 */
import { EdgeImage, ENTITY_KINDS, EntityKind, Image, PortImage, Snapshot } from './graphSnapshot';
import type { QueryRunner } from '../../shared/neo4j/namedQuery';
import type { View } from '../graph';
import { addStates, emptyIds, IdSets, portsOf, wiresInto } from './changeSets';

/** What the loader reads of one view: states by id, ports of nodes, wires into ports. */
export interface ViewReader {
  /** Adds to `snap` the states of the ids that exist in the view. */
  load(snap: Snapshot, ids: Partial<Record<EntityKind, Iterable<string>>>): Promise<void>;
  portsOf(nodeIds: string[]): Promise<PortImage[]>;
  wiresInto(portIds: string[]): Promise<EdgeImage[]>;
}

export interface ThreeWay {
  base: Snapshot;
  main: Snapshot;
  branch: Snapshot;
}

function sparse(): Snapshot {
  return {
    sparse: true,
    node: new Map(),
    port: new Map(),
    edge: new Map(),
    positions: new Map(),
  };
}

/** Deepest ancestor walk (the nesting limit keeps real chains far shorter). */
const MAX_LEVELS = 10_000;

/**
 * Loads the three sparse snapshots of the entities `changed` plus their context.
 * `context` reads the shared context (any of the three views serves; main now is used).
 */
export async function loadThreeWay(
  readers: { base: ViewReader; main: ViewReader; branch: ViewReader },
  changed: IdSets,
): Promise<ThreeWay> {
  const snaps: ThreeWay = { base: sparse(), main: sparse(), branch: sparse() };
  const sides = ['base', 'main', 'branch'] as const;
  for (const side of sides) await readers[side].load(snaps[side], changed);
  const shared = sparse();
  const known = (kind: EntityKind, id: string) =>
    changed[kind].has(id) || (shared[kind] as Map<string, Image>).has(id);
  const pending = emptyIds();
  const want = (kind: EntityKind, id: string | null | undefined) => {
    if (id && !known(kind, id)) pending[kind].add(id);
  };

  // ports of changed nodes; ports at the ends of changed wires; wires into their targets
  for (const port of await readers.main.portsOf([...changed.node])) {
    if (!known('port', port.id)) shared.port.set(port.id, port);
  }
  const targets = new Set<string>();
  for (const side of sides) {
    for (const edge of snaps[side].edge.values()) {
      want('port', edge.source_handle);
      want('port', edge.target_handle);
      if (edge.target_handle) targets.add(edge.target_handle);
    }
  }
  for (const edge of await readers.main.wiresInto([...targets])) {
    if (!known('edge', edge.id)) shared.edge.set(edge.id, edge);
  }
  await readers.main.load(shared, { port: pending.port });

  // the nodes of loaded ports and the ancestors of loaded nodes, a level at a time
  const all = [...sides.map((s) => snaps[s]), shared];
  for (const snap of all) for (const port of snap.port.values()) want('node', port.node_id);
  // an id that exists in no view (a dangling parent) ends its walk there
  const tried = new Set<string>();
  for (let level = 0; level < MAX_LEVELS; level += 1) {
    for (const snap of all) for (const node of snap.node.values()) want('node', node.parent_id);
    const frontier = [...pending.node].filter((id) => !known('node', id) && !tried.has(id));
    pending.node.clear();
    if (frontier.length === 0) break;
    for (const id of frontier) tried.add(id);
    await readers.main.load(shared, { node: frontier });
  }

  for (const snap of sides.map((s) => snaps[s])) {
    for (const kind of ENTITY_KINDS) {
      const into = snap[kind] as Map<string, Image>;
      for (const [id, image] of shared[kind] as Map<string, Image>) into.set(id, image);
    }
    for (const [id, position] of shared.positions) snap.positions.set(id, position);
  }
  return snaps;
}

/** A reader of one view in the caller's transaction. */
export function viewReader(tx: QueryRunner, view: View): ViewReader {
  return {
    load: (snap, ids) => addStates(tx, view, snap, ids),
    portsOf: (nodeIds) => portsOf(tx, view, nodeIds),
    wiresInto: (portIds) => wiresInto(tx, view, portIds),
  };
}

/** A reader over a full in-memory snapshot (the unit specs' stand-in for a view). */
export function snapshotReader(full: Snapshot): ViewReader {
  return {
    async load(snap, ids) {
      for (const kind of ENTITY_KINDS) {
        const from = full[kind] as Map<string, Image>;
        const into = snap[kind] as Map<string, Image>;
        for (const id of ids[kind] ?? []) {
          const image = from.get(id);
          if (image) into.set(id, image);
          const position = kind === 'node' ? full.positions.get(id) : undefined;
          if (position) snap.positions.set(id, position);
        }
      }
    },
    async portsOf(nodeIds) {
      const wanted = new Set(nodeIds);
      return [...full.port.values()].filter((p) => wanted.has(p.node_id));
    },
    async wiresInto(portIds) {
      const wanted = new Set(portIds);
      return [...full.edge.values()].filter(
        (e) => e.target_handle !== null && wanted.has(e.target_handle),
      );
    },
  };
}
