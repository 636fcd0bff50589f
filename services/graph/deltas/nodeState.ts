/**
 * Converts between stored records, NodeState (the shape checker's view) and node
 * patches; every field and default comes from the node model (shared/model).
 */
import {
  CHANNELS,
  NodeKind,
  NodeState,
  PortValues,
  VALUE_FIELD_NAMES,
} from '../../../shared/model/nodeModel';
import {
  channelValues,
  nodeValues,
  PORT_VALUE_KEYS,
  portValues,
  recordMaker,
  storedPortProps,
  storedProps,
} from '../../../shared/model/nodeValues';
import type { Channel, NodeRecord, PortRecord } from '../graphRecords';
import type { NodeDataInput } from './deltaTypes';

// Records built field by field have every key in their maker (recordMaker says why).
const stateRecord = recordMaker(['kind', ...VALUE_FIELD_NAMES, 'ports']);
const nodeRecord = recordMaker(['kind', ...VALUE_FIELD_NAMES, 'name_key']);
const placedNodeRecord = recordMaker([
  'kind',
  ...VALUE_FIELD_NAMES,
  'name_key',
  'parent_id',
  'scope',
  'x',
  'y',
]);
const portPropsRecord = recordMaker([...PORT_VALUE_KEYS, 'node_id', 'node_kind', 'channel', 'ord']);

function stateOf(
  kind: NodeKind,
  stored: Record<string, unknown>,
  ports: NodeState['ports'],
): NodeState {
  const state = stateRecord();
  state.kind = kind;
  nodeValues(stored, state);
  state.ports = ports;
  return state as NodeState;
}

export function emptyState(kind: NodeKind): NodeState {
  return stateOf(kind, {}, { inputs: [], outputs: [], config: [] });
}

export function stateFromRecord(node: NodeRecord, ports: PortRecord[]): NodeState {
  const grouped: Record<Channel, PortRecord[]> = { inputs: [], outputs: [], config: [] };
  for (const port of [...ports].sort((a, b) => a.ord - b.ord)) grouped[port.channel].push(port);
  return stateOf(node.kind, node, channelValues(grouped));
}

/**
 * Applies a patch with key presence (an absent key leaves the field as it is); a
 * port list replaces its channel, each port keeping the fields it was not sent.
 */
export function applyPatch(state: NodeState, patch: NodeDataInput): NodeState {
  const next: NodeState = { ...state };
  next.ports = { ...state.ports };
  for (const key of VALUE_FIELD_NAMES) {
    if (patch[key] !== undefined) (next as Record<string, unknown>)[key] = patch[key];
  }
  const existing = new Map<string, PortValues>();
  for (const channel of CHANNELS)
    for (const p of state.ports[channel]) existing.set(`${channel}:${p.id}`, p);
  for (const channel of CHANNELS) {
    const list = patch[channel];
    if (list !== undefined)
      next.ports[channel] = list.map((p) => portValues(p, existing.get(`${channel}:${p.id}`)));
  }
  return next;
}

/**
 * The lower-cased name a node record carries beside its name (`name_key`), the key of
 * the name search's indexes (store/searchQueries.ts): a search compares names without
 * case through an index instead of lower-casing every name of the graph. Every record
 * gets it from here with its name; migration/backfillNameKeys.ts gave it to records
 * written before, with Cypher's toLower.
 */
export function nameKeyOf(name: string): string {
  return name.toLowerCase();
}

/** Node properties as stored (everything but ports and position). */
export function nodeProps(state: NodeState): Record<string, unknown> {
  const props = nodeRecord();
  props.kind = state.kind;
  storedProps(state, props);
  props.name_key = nameKeyOf(state.name);
  return props;
}

/** A new node's properties as stored: nodeProps, and its place under `parentId` at 0,0. */
export function placedNodeProps(
  state: NodeState,
  parentId: string | null,
): Record<string, unknown> {
  const props = placedNodeRecord();
  props.kind = state.kind;
  storedProps(state, props);
  props.name_key = nameKeyOf(state.name);
  props.parent_id = parentId;
  props.scope = parentId ?? '';
  props.x = 0;
  props.y = 0;
  return props;
}

/**
 * Port properties as stored: their owner, its kind, their channel and place in it
 * included. A node's kind never changes, so a port record can carry it (`node_kind`):
 * a wire's checks read it from the port instead of looking the owner up. Records
 * written before it was stored have none; the checks look their owner up.
 */
export function portProps(nodeId: string, state: NodeState): Record<string, unknown>[] {
  const all: Record<string, unknown>[] = [];
  for (const channel of CHANNELS)
    state.ports[channel].forEach((p, ord) => {
      const props = storedPortProps(p, portPropsRecord());
      props.node_id = nodeId;
      props.node_kind = state.kind;
      props.channel = channel;
      props.ord = ord;
      all.push(props);
    });
  return all;
}
