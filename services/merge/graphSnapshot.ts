/**
 * An in-memory image of graph content in one view, keyed by id, for merge analysis,
 * previews and diffs: sparse (only the entities a change set names and their context,
 * loaded by changeSets.ts and threeWaySnapshots.ts) or full (unit specs). Images carry every field of the node model and nothing of
 * layout: positions are kept apart (moving a node never counts as a change). Port
 * `ord` is kept to order a channel, but is not a field.
 */
import { EDGE_FIELDS, PORT_FIELDS, VALUE_FIELD_NAMES } from '../../shared/model/nodeModel';
import { edgeValues, nodeValues, portValues } from '../../shared/model/nodeValues';
import type { Channel, NodeRecord, PortRecord } from '../graph';

export type EntityKind = 'node' | 'port' | 'edge';
export const ENTITY_KINDS: readonly EntityKind[] = ['node', 'port', 'edge'];

/**
 * Compared fields per entity kind (DiffResponse ChangedEntity.fields): where an
 * entity sits plus the node model's fields (a node's ports are entities of their own).
 */
export const FIELDS: Record<EntityKind, readonly string[]> = {
  node: ['kind', 'parent_id', ...VALUE_FIELD_NAMES],
  port: ['node_id', 'channel', ...Object.keys(PORT_FIELDS)],
  edge: Object.keys(EDGE_FIELDS),
};

export type Image = Record<string, unknown> & { id: string };

export interface NodeImage extends Image {
  kind: string;
  parent_id: string | null;
  name: string;
}

export interface PortImage extends Image {
  node_id: string;
  channel: Channel;
  name: string;
  ord: number;
}

export interface EdgeImage extends Image {
  source_handle: string | null;
  target_handle: string | null;
}

export interface Snapshot {
  /**
   * A sparse snapshot holds only some entities of its view (those changed on either side
   * of a merge or diff, and the context the conflict rules read): an id absent from it
   * means "not loaded", which the rules read as "unchanged since the base", never as
   * "deleted". A full snapshot holds the whole view.
   */
  sparse?: boolean;
  node: Map<string, NodeImage>;
  port: Map<string, PortImage>;
  edge: Map<string, EdgeImage>;
  positions: Map<string, { x: number; y: number }>;
}

export function emptySnapshot(): Snapshot {
  return { node: new Map(), port: new Map(), edge: new Map(), positions: new Map() };
}

export function cloneSnapshot(s: Snapshot): Snapshot {
  return {
    sparse: s.sparse,
    node: new Map(s.node),
    port: new Map(s.port),
    edge: new Map(s.edge),
    positions: new Map(s.positions),
  };
}

/** Adds a node record as read from the store (layout kept apart). */
export function addNodeRecord(snap: Snapshot, node: NodeRecord): void {
  const place = { id: node.id, kind: node.kind, parent_id: node.parent_id ?? null };
  snap.node.set(node.id, { ...place, ...nodeValues(node) });
  snap.positions.set(node.id, { x: node.x ?? 0, y: node.y ?? 0 });
}

/** Adds a port record as read from the store. */
export function addPortRecord(snap: Snapshot, port: PortRecord): void {
  const place = { id: port.id, node_id: port.node_id, channel: port.channel, ord: port.ord ?? 0 };
  snap.port.set(port.id, { ...place, ...portValues(port) });
}

/** Adds a wire record as read from the store. */
export function addEdgeRecord(snap: Snapshot, edge: EdgeImage): void {
  snap.edge.set(edge.id, edgeValues(edge));
}

/**
 * The JSON size of a snapshot's nodes, ports and wires: the graph content a branch
 * stores, as the per-branch stored-bytes quota counts it (graph/branchUsage.ts).
 */
export function contentBytes(snap: Snapshot): number {
  let total = 0;
  for (const images of [snap.node, snap.port, snap.edge]) {
    for (const image of images.values()) total += Buffer.byteLength(JSON.stringify(image));
  }
  return total;
}

export function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/** Names of the fields that differ between two images of one entity, sorted. */
export function changedFields(kind: EntityKind, a: Image, b: Image): string[] {
  return FIELDS[kind].filter((f) => !sameValue(a[f], b[f])).sort();
}

/** Lookups by relation, built once per snapshot (ports of a node, wires into a port). */
export class SnapshotIndex {
  private readonly portsByNode = new Map<string, PortImage[]>();
  private readonly edgesByTarget = new Map<string, EdgeImage[]>();

  constructor(readonly snap: Snapshot) {
    for (const port of snap.port.values()) push(this.portsByNode, port.node_id, port);
    for (const edge of snap.edge.values()) {
      if (edge.target_handle !== null) push(this.edgesByTarget, edge.target_handle, edge);
    }
    for (const ports of this.portsByNode.values()) ports.sort((a, b) => a.ord - b.ord);
  }

  /** Port ids of one channel of a node, in channel order. */
  channel(nodeId: string, channel: Channel): string[] {
    return (this.portsByNode.get(nodeId) ?? [])
      .filter((p) => p.channel === channel)
      .map((p) => p.id);
  }

  /** Source handles wired into an input port, sorted: the port's wiring. */
  wiring(portId: string): string[] {
    return (this.edgesByTarget.get(portId) ?? [])
      .map((e) => e.source_handle ?? '(unpinned)')
      .sort();
  }
}

function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
