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
  portValues,
  storedProps,
} from '../../../shared/model/nodeValues';
import type { Channel, NodeRecord, PortRecord } from '../graphRecords';
import type { NodeDataInput } from './deltaTypes';

export function emptyState(kind: NodeKind): NodeState {
  return { kind, ...nodeValues(), ports: { inputs: [], outputs: [], config: [] } };
}

export function stateFromRecord(node: NodeRecord, ports: PortRecord[]): NodeState {
  const grouped: Record<Channel, PortRecord[]> = { inputs: [], outputs: [], config: [] };
  for (const port of [...ports].sort((a, b) => a.ord - b.ord)) grouped[port.channel].push(port);
  return { kind: node.kind, ...nodeValues(node), ports: channelValues(grouped) };
}

/**
 * Applies a patch with key presence (an absent key leaves the field as it is); a
 * port list replaces its channel, each port keeping the fields it was not sent.
 */
export function applyPatch(state: NodeState, patch: NodeDataInput): NodeState {
  const next: NodeState = { ...state, ports: { ...state.ports } };
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

/** Node properties as stored (everything but ports and position). */
export function nodeProps(state: NodeState): Record<string, unknown> {
  return { kind: state.kind, ...storedProps(state) };
}

/**
 * Port properties as stored: their owner, its kind, their channel and place in it
 * included. A node's kind never changes, so a port record can carry it (`node_kind`):
 * a wire's checks read it from the port instead of looking the owner up. Records
 * written before it was stored have none; the checks look their owner up.
 */
export function portProps(nodeId: string, state: NodeState): Record<string, unknown>[] {
  return CHANNELS.flatMap((channel) =>
    state.ports[channel].map((p, ord) => ({
      ...p,
      node_id: nodeId,
      node_kind: state.kind,
      channel,
      ord,
    })),
  );
}
