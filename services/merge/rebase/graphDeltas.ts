/**
 * The deltas that turn one sparse snapshot into another (both over the same ids, as
 * threeWaySnapshots.ts loads them): what a rebase applies to the branch (from the
 * branch as the rebase finds it to the rebased graph) and what it records (from main
 * at the new base to the rebased graph: the branch's changes as one batch, which a
 * later merge replays). Wire-shaped (the Delta schema), so they parse, apply and record
 * as any batch's do.
 *
 * Order, so that each delta applies to what the ones before it left: wires removed;
 * nodes that stay changed and moved (under parents that exist before the batch; one
 * bound for an added parent out of a removed subtree goes to the top level first); nodes
 * removed (only the top of a removed subtree: a removal takes the subtree); nodes added,
 * parents first; moves under added parents; wires added. Names are checked as each
 * delta applies, so two nodes that swap names among siblings refuse (duplicate_name).
 */
import type { components } from '../../../shared/api/openapi.generated';
import { CHANNELS, VALUE_FIELD_NAMES } from '../../../shared/model/nodeModel';
import type { Channel, NodeKind, NodeValues, PortValues } from '../../../shared/model/nodeModel';
import { fileData, PORT_VALUE_KEYS } from '../../../shared/model/nodeValues';
import { NodeImage, PortImage, sameValue, Snapshot } from '../graphSnapshot';

export type WireDelta = components['schemas']['Delta'];

const portsByNode = new WeakMap<Snapshot, Map<string, PortImage[]>>();

/** The ports of each node of `snap`, indexed once per snapshot (snapshots are not
 * changed once their deltas are asked for). */
function portsOf(snap: Snapshot, nodeId: string): PortImage[] {
  let index = portsByNode.get(snap);
  if (!index) {
    index = new Map();
    for (const port of snap.port.values()) {
      const list = index.get(port.node_id);
      if (list) list.push(port);
      else index.set(port.node_id, [port]);
    }
    portsByNode.set(snap, index);
  }
  return index.get(nodeId) ?? [];
}

/** A node's ports per channel in a snapshot, in order, as PortValues. */
export function channelsOf(snap: Snapshot, nodeId: string): Record<Channel, PortValues[]> {
  const out: Record<Channel, PortImage[]> = { inputs: [], outputs: [], config: [] };
  for (const port of portsOf(snap, nodeId)) out[port.channel].push(port);
  const values = (ports: PortImage[]) =>
    ports
      .sort((a, b) => a.ord - b.ord || a.id.localeCompare(b.id))
      .map((p) => Object.fromEntries(PORT_VALUE_KEYS.map((k) => [k, p[k] ?? null])) as PortValues);
  return { inputs: values(out.inputs), outputs: values(out.outputs), config: values(out.config) };
}

function dataOf(snap: Snapshot, node: NodeImage): components['schemas']['NodeData'] {
  return fileData(node.kind as NodeKind, node as unknown as NodeValues, channelsOf(snap, node.id));
}

/** The `after` of an update from `a` to `b` of one node; null when nothing differs. */
function updateOf(from: Snapshot, to: Snapshot, a: NodeImage, b: NodeImage) {
  const data = dataOf(to, b) as Record<string, unknown>;
  const after: Record<string, unknown> = {};
  for (const f of VALUE_FIELD_NAMES) {
    if (f in data && !sameValue(a[f], b[f])) after[f] = data[f];
  }
  const before = channelsOf(from, a.id);
  const now = channelsOf(to, b.id);
  for (const c of CHANNELS) if (!sameValue(before[c], now[c])) after[c] = now[c];
  return Object.keys(after).length > 0 ? after : null;
}

/** Whether `id` is inside a node of `gone` (its parent chain in `snap` reaches one). */
function underRemoved(snap: Snapshot, id: string, gone: Set<string>): boolean {
  const seen = new Set<string>();
  let parent = snap.node.get(id)?.parent_id ?? null;
  while (parent !== null && !seen.has(parent)) {
    if (gone.has(parent)) return true;
    seen.add(parent);
    parent = snap.node.get(parent)?.parent_id ?? null;
  }
  return false;
}

/** Added nodes, each after its parent when the parent is added too. */
function parentsFirst(added: NodeImage[]): NodeImage[] {
  const byId = new Map(added.map((n) => [n.id, n]));
  const out: NodeImage[] = [];
  const placed = new Set<string>();
  const place = (n: NodeImage, depth: number) => {
    if (placed.has(n.id) || depth > added.length) return;
    const parent = n.parent_id === null ? undefined : byId.get(n.parent_id);
    if (parent) place(parent, depth + 1);
    placed.add(n.id);
    out.push(n);
  };
  for (const n of [...added].sort((a, b) => a.id.localeCompare(b.id))) place(n, 0);
  return out;
}

export function deltasBetween(from: Snapshot, to: Snapshot): WireDelta[] {
  const deltas: WireDelta[] = [];
  const ids = (kind: 'node' | 'edge') =>
    [...new Set([...from[kind].keys(), ...to[kind].keys()])].sort();
  for (const id of ids('edge')) {
    if (from.edge.has(id) && !to.edge.has(id)) deltas.push({ type: 'delete_edge', edge_id: id });
  }
  const lateMoves: WireDelta[] = [];
  const nodeIds = ids('node');
  const removed = new Set(nodeIds.filter((id) => from.node.has(id) && !to.node.has(id)));
  const added: NodeImage[] = [];
  for (const id of nodeIds) {
    const a = from.node.get(id);
    const b = to.node.get(id);
    if (!a && b) added.push(b);
    if (!a || !b) continue;
    if (a.parent_id !== b.parent_id) {
      const move: WireDelta = { type: 'reparent_node', node_id: id, parent_id: b.parent_id };
      if (b.parent_id === null || from.node.has(b.parent_id) || !to.node.has(b.parent_id)) {
        deltas.push(move);
      } else {
        // into a node added below: out of a subtree removed before that, to the top level first
        if (underRemoved(from, id, removed))
          deltas.push({ type: 'reparent_node', node_id: id, parent_id: null });
        lateMoves.push(move);
      }
    }
    const after = updateOf(from, to, a, b);
    if (after) deltas.push({ type: 'update_node_data', node_id: id, after });
  }
  for (const id of [...removed].sort()) {
    if (!underRemoved(from, id, removed)) deltas.push({ type: 'delete_node', node_id: id });
  }
  for (const node of parentsFirst(added)) {
    deltas.push({
      type: 'add_node',
      node: {
        id: node.id,
        kind: node.kind as NodeKind,
        parent_id: node.parent_id,
        data: dataOf(to, node),
      },
    });
  }
  deltas.push(...lateMoves);
  for (const id of ids('edge')) {
    const edge = to.edge.get(id);
    if (edge && !from.edge.has(id)) {
      deltas.push({
        type: 'add_edge',
        edge: { id, source_handle: edge.source_handle, target_handle: edge.target_handle },
      });
    }
  }
  return deltas;
}
