/**
 * The records a run of add_node/add_edge deltas writes, built from its deltas alone: a
 * node's state is its kind's empty state with the delta's data laid over it, a port's
 * record comes from that state, and a wire's from its two handles. The checks of the run
 * (addRunChecker.ts) need the view's facts; the records do not. So a batch's leading run
 * can be written in the statement that reads its facts (lockAndPrefetchAddRun), ahead of
 * its checks: a refused batch rolls back, write included.
 */
import { CHANNELS, NodeState } from '../../../shared/model/nodeModel';
import type { RunShape } from '../runFindingPlan';
import type { FindingPort } from '../runFindings';
import type { NewRow } from '../recordWrites';
import type { AddEdge, AddNode, Addition } from './deltaTypes';
import { checkNodeShape } from './nodeShape';
import { applyPatch, emptyState, placedNodeProps, portProps } from './nodeState';

/** The nodes, ports and wires a run writes. */
export interface RunRows {
  nodes: NewRow[];
  ports: NewRow[];
  edges: NewRow[];
}

/** The state an add_node delta creates: its kind's empty state with the delta's data over it. */
export function addedState(d: AddNode): NodeState {
  return applyPatch(emptyState(d.node.kind), d.node.data);
}

/**
 * A new record's properties as sent to Neo4j: without the nulls (a created record stores
 * none: a default is left out, storedProps) and without its id (the statement sets it
 * from the row's). A large import sends a few hundred thousand of them, and each key
 * costs packing, decoding and a property set.
 */
function createdProps(props: Record<string, unknown>): Record<string, unknown> {
  const sent: Record<string, unknown> = {};
  for (const key in props) if (props[key] !== null && key !== 'id') sent[key] = props[key];
  return sent;
}

/** The node record and port records of add_node delta `d`, whose state is `state`. */
export function addedNodeRows(d: AddNode, state: NodeState): { node: NewRow; ports: NewRow[] } {
  const { id, parent_id: parentId } = d.node;
  return {
    node: {
      id,
      props: createdProps(placedNodeProps(state, parentId)),
    },
    ports: portProps(id, state).map((port) => ({
      id: port.id as string,
      props: createdProps(port),
    })),
  };
}

/** The wire record of add_edge delta `d`. */
export function addedEdgeRow(d: AddEdge): NewRow {
  const { id, source_handle: source, target_handle: target } = d.edge;
  return { id, props: { source_handle: source, target_handle: target } };
}

/**
 * What a run's deltas alone make of it: its records in delta order, its shape as its
 * findings see it (runFindingPlan.ts: the nodes, the ports by id, the wires), and the
 * state of each of its add_node deltas, by the delta's index in the batch, each of its
 * kind's shape.
 */
export interface RunRecords {
  rows: RunRows;
  shape: RunShape;
  states: ReadonlyMap<number, NodeState>;
}

/**
 * The records of `run` (RunRecords); null when a node's data does not make a state of
 * its kind's shape (checkNodeShape): the checks refuse that run, and nothing is written
 * ahead of them. Ids in use, names taken and the rest are for the checks to find.
 */
export function runRecords(run: readonly Addition[]): RunRecords | null {
  const states = new Map<number, NodeState>();
  for (const d of run) {
    if (d.type !== 'add_node') continue;
    try {
      const state = addedState(d);
      checkNodeShape(state, { index: d.index, type: d.type, entityId: d.node.id }, (f) => f);
      states.set(d.index, state);
    } catch {
      return null;
    }
  }
  return recordsOf(run, states);
}

/**
 * The records of `run` whose add_node deltas make the states `states` (by delta index):
 * its rows and its shape, each in delta order.
 */
export function recordsOf(
  run: readonly Addition[],
  states: ReadonlyMap<number, NodeState>,
): RunRecords {
  const rows: RunRows = { nodes: [], ports: [], edges: [] };
  const ports = new Map<string, FindingPort>();
  const shape: RunShape = { nodes: [], ports, wires: [] };
  for (const d of run) {
    if (d.type === 'add_edge') {
      rows.edges.push(addedEdgeRow(d));
      const { id, source_handle: source, target_handle: target } = d.edge;
      shape.wires.push({ id, source, target });
      continue;
    }
    const state = states.get(d.index);
    if (!state) throw new Error(`no state for the add_node delta at index ${d.index}`);
    const added = addedNodeRows(d, state);
    rows.nodes.push(added.node);
    rows.ports.push(...added.ports);
    const seen = findingShapeOf(d, state);
    shape.nodes.push(seen.node);
    for (const [portId, port] of seen.ports) ports.set(portId, port);
  }
  return { rows, shape, states };
}
/** Add_node delta `d`'s node and ports (by id) as findings see them, its state being `state`. */
export function findingShapeOf(
  d: AddNode,
  state: NodeState,
): { node: RunShape['nodes'][number]; ports: [string, FindingPort][] } {
  const { id, parent_id: parentId } = d.node;
  const ports: [string, FindingPort][] = [];
  for (const c of CHANNELS)
    for (const p of state.ports[c]) ports.push([p.id, { channel: c, name: p.name, type: p.type }]);
  return {
    node: { id, parentId, traced: state.source_decisions.length > 0, name: state.name },
    ports,
  };
}
