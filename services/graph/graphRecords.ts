/** Graph content as stored in Neo4j (see store/graphSchema.ts). */

export type NodeKind = 'behavior' | 'boundary' | 'state' | 'io' | 'interface';
export const NODE_KINDS: readonly NodeKind[] = ['behavior', 'boundary', 'state', 'io', 'interface'];

export type Channel = 'inputs' | 'outputs' | 'config';
export const CHANNELS: readonly Channel[] = ['inputs', 'outputs', 'config'];

export interface VerificationRecord {
  id: string;
  author: 'user' | 'agent';
  text: string;
  type: string | null;
}

export interface NodeRecord {
  id: string;
  branch_id: string;
  kind: NodeKind;
  parent_id: string | null;
  name: string;
  description: string;
  aliases: string[];
  constraints: string[];
  /** JSON text of VerificationRecord[] (Neo4j properties hold no maps). */
  verifications: string;
  is_test_node: boolean;
  status: string;
  user_kind: string | null;
  path_prefix: string | null;
  language: string | null;
  is_external: boolean;
  external_kind: string | null;
  protocol: string | null;
  documentation_url: string | null;
  source_decisions: string[];
  x: number;
  y: number;
}

export interface PortRecord {
  id: string;
  branch_id: string;
  node_id: string;
  channel: Channel;
  ord: number;
  name: string;
  type: string;
  description: string;
  external: boolean;
  contract_name: string | null;
}

export interface EdgeRecord {
  id: string;
  source_handle: string | null;
  target_handle: string | null;
  /** Derived node ids (null when the handle is null or dangles). */
  source: string | null;
  target: string | null;
}

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
