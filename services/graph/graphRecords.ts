/** Graph content as stored in Neo4j (see store/graphSchema.ts); the fields are the node model's. */
import type {
  Channel,
  EdgeFieldName,
  NodeKind,
  NodeValues,
  PortValues,
} from '../../shared/model/nodeModel';
import { CHANNELS } from '../../shared/model/nodeModel';

export type { Channel, NodeKind } from '../../shared/model/nodeModel';

/** A node as stored: its own fields, verifications as JSON text (Neo4j properties hold no maps). */
export type NodeRecord = Omit<NodeValues, 'verifications'> & {
  id: string;
  branch_id: string;
  kind: NodeKind;
  parent_id: string | null;
  verifications: string;
  x: number;
  y: number;
};

/** A port as stored: its fields plus its node, channel and place in the channel. */
export type PortRecord = PortValues & {
  branch_id: string;
  node_id: string;
  channel: Channel;
  ord: number;
};

export type EdgeRecord = { id: string } & { [K in EdgeFieldName]: string | null } & {
  /** Derived node ids (null when the handle is null or dangles). */
  source: string | null;
  target: string | null;
};

/** A node with its ports grouped by channel, in order. */
export interface NodeWithPorts {
  node: NodeRecord;
  ports: Record<Channel, PortRecord[]>;
}

export function groupPorts(nodes: NodeRecord[], ports: PortRecord[]): NodeWithPorts[] {
  const byNode = new Map<string, NodeWithPorts>();
  for (const node of nodes)
    byNode.set(node.id, { node, ports: { inputs: [], outputs: [], config: [] } });
  for (const port of ports) byNode.get(port.node_id)?.ports[port.channel].push(port);
  for (const entry of byNode.values()) {
    for (const channel of CHANNELS) entry.ports[channel].sort((a, b) => a.ord - b.ord);
  }
  return [...byNode.values()];
}
