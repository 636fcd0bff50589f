/**
 * The inverse of one batch as deltas (revertBranch): what the change trail records for
 * a revert, so that a merge that replays the branch's batches on main replays the
 * revert like any batch. Built from the states of the entities the batch wrote, before
 * it (version K - 1) and after it (version K), every port of the nodes concerned
 * included. Pure: no database.
 *
 * Order: wires the batch added go first (delete_edge); then nodes it changed get their
 * data back (update_node_data) and go back under their former parents (reparent_node)
 * when those still exist; nodes it added go (delete_node, top-most only: a delete takes
 * the subtree); nodes it deleted come back, parents first (add_node, with their ports);
 * nodes whose former parent came back just now move under it; wires it deleted come
 * back last (add_edge).
 */
import type { components } from '../../shared/api/openapi.generated';
import type { Channel } from '../../shared/model/nodeModel';
import { channelValues, edgeValues, fileData, nodeValues } from '../../shared/model/nodeValues';
import type { NodeKind, PortRecord } from './graphRecords';

type WireDelta = components['schemas']['Delta'];
type NodeData = components['schemas']['NodeData'];
export type StoredState = Record<string, unknown>;

/** An entity's states before and after the reverted batch (null: it did not exist). */
export interface StatePair {
  before: StoredState | null;
  after: StoredState | null;
}

export interface RevertInput {
  /** Nodes the batch wrote, or whose ports it wrote. */
  nodes: Map<string, StatePair>;
  /** Wires the batch wrote. */
  edges: Map<string, StatePair>;
  /** Every port of those nodes before and after the batch, by node id. */
  portsBefore: Map<string, StoredState[]>;
  portsAfter: Map<string, StoredState[]>;
}

function dataOf(node: StoredState, ports: StoredState[] = []): NodeData {
  const grouped: Record<Channel, PortRecord[]> = { inputs: [], outputs: [], config: [] };
  const records = ports as unknown as PortRecord[];
  for (const port of [...records].sort((a, b) => a.ord - b.ord)) grouped[port.channel].push(port);
  return fileData(node.kind as NodeKind, nodeValues(node), channelValues(grouped)) as NodeData;
}

const parentOf = (state: StoredState): string | null => (state.parent_id as string | null) ?? null;

/** Removed nodes with every parent that is also removed placed before its children. */
function parentsFirst(ids: string[], parent: (id: string) => string | null): string[] {
  const pending = new Set(ids);
  const ordered: string[] = [];
  const place = (id: string, seen: Set<string>) => {
    if (!pending.has(id) || seen.has(id)) return;
    seen.add(id);
    const p = parent(id);
    if (p !== null) place(p, seen);
    pending.delete(id);
    ordered.push(id);
  };
  for (const id of ids) place(id, new Set());
  return ordered;
}

export function inverseDeltas(input: RevertInput): WireDelta[] {
  const first: WireDelta[] = [];
  const moves: WireDelta[] = [];
  const deletes: WireDelta[] = [];
  const adds: WireDelta[] = [];
  const lateMoves: WireDelta[] = [];
  const wires: WireDelta[] = [];

  for (const [id, { before, after }] of [...input.edges].sort(([a], [b]) => a.localeCompare(b))) {
    if (after !== null) first.push({ type: 'delete_edge', edge_id: id });
    if (before !== null) wires.push({ type: 'add_edge', edge: edgeValues({ ...before, id }) });
  }

  const nodes = [...input.nodes].sort(([a], [b]) => a.localeCompare(b));
  const restored = new Set(
    nodes.filter(([, s]) => s.before !== null && s.after === null).map(([id]) => id),
  );
  const added = new Set(
    nodes.filter(([, s]) => s.before === null && s.after !== null).map(([id]) => id),
  );
  for (const [id, { before, after }] of nodes) {
    if (before === null || after === null) continue;
    const was = dataOf(before, input.portsBefore.get(id));
    const now = dataOf(after, input.portsAfter.get(id));
    if (JSON.stringify(was) !== JSON.stringify(now)) {
      const data: Record<string, unknown> = { ...was };
      delete data.source_decisions; // server-authoritative; never changed by a batch
      first.push({ type: 'update_node_data', node_id: id, after: data as NodeData });
    }
    const parent = parentOf(before);
    if (parent !== parentOf(after)) {
      const move: WireDelta = { type: 'reparent_node', node_id: id, parent_id: parent };
      (parent !== null && restored.has(parent) ? lateMoves : moves).push(move);
    }
  }
  for (const id of added) {
    const parent = parentOf(input.nodes.get(id)?.after ?? {});
    if (parent === null || !added.has(parent)) deletes.push({ type: 'delete_node', node_id: id });
  }
  const parentBefore = (id: string) => parentOf(input.nodes.get(id)?.before ?? {});
  for (const id of parentsFirst([...restored], parentBefore)) {
    const before = input.nodes.get(id)?.before as StoredState;
    adds.push({
      type: 'add_node',
      node: {
        id,
        kind: before.kind as NodeKind,
        parent_id: parentOf(before),
        data: dataOf(before, input.portsBefore.get(id)),
      },
    });
  }
  return [...first, ...moves, ...deletes, ...adds, ...lateMoves, ...wires];
}
