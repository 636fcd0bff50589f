/** The seven delta types after parsing: clean values, key presence kept. */
import type { Channel, NodeKind } from '../graphRecords';

export const DELTA_TYPES = [
  'add_node',
  'delete_node',
  'update_node_data',
  'reparent_node',
  'add_edge',
  'delete_edge',
  'flatten_boundary',
] as const;
export type DeltaType = (typeof DELTA_TYPES)[number];

export interface PortInput {
  id: string;
  /** Only the keys the caller sent (key presence). */
  name?: string;
  type?: string;
  description?: string;
  external?: boolean;
  contract_name?: string | null;
}

export interface VerificationInput {
  id: string;
  author: 'user' | 'agent';
  text: string;
  type: string | null;
}

/** NodeData with key presence: an absent key is "leave unchanged". */
export interface NodeDataInput {
  kind?: NodeKind;
  name?: string;
  aliases?: string[];
  description?: string;
  inputs?: PortInput[];
  outputs?: PortInput[];
  config?: PortInput[];
  constraints?: string[];
  verifications?: VerificationInput[];
  parent_id?: string | null;
  is_test_node?: boolean;
  status?: string;
  user_kind?: string | null;
  path_prefix?: string | null;
  language?: string | null;
  is_external?: boolean;
  external_kind?: string | null;
  protocol?: string | null;
  documentation_url?: string | null;
  source_decisions?: string[];
}

interface Base {
  index: number;
}

export interface AddNode extends Base {
  type: 'add_node';
  node: { id: string; kind: NodeKind; parent_id: string | null; data: NodeDataInput };
}
export interface DeleteNode extends Base {
  type: 'delete_node';
  node_id: string;
}
export interface UpdateNodeData extends Base {
  type: 'update_node_data';
  node_id: string;
  after: NodeDataInput;
}
export interface ReparentNode extends Base {
  type: 'reparent_node';
  node_id: string;
  parent_id: string | null;
}
export interface AddEdge extends Base {
  type: 'add_edge';
  edge: { id: string; source_handle: string | null; target_handle: string | null };
}
export interface DeleteEdge extends Base {
  type: 'delete_edge';
  edge_id: string;
}
export interface FlattenBoundary extends Base {
  type: 'flatten_boundary';
  node_id: string;
}

export type Delta =
  AddNode | DeleteNode | UpdateNodeData | ReparentNode | AddEdge | DeleteEdge | FlattenBoundary;

export const PORT_CHANNELS: readonly Channel[] = ['inputs', 'outputs', 'config'];

export interface DeltaBatch {
  deltas: Delta[];
  expectedVersion: number | null;
  /** null when the body had no positions key. */
  positions: Map<string, { x: number; y: number }> | null;
}
