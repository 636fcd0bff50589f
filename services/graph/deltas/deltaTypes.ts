/** The seven delta types (the variants of the Delta schema) after parsing: clean values, key presence kept. */
import type {
  Channel,
  NodeKind,
  NodeValues,
  PortValues,
  VerificationValues,
} from '../../../shared/model/nodeModel';

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

/** A port as sent: its id and only the keys the caller sent (key presence). */
export type PortInput = { id: string } & Partial<Omit<PortValues, 'id'>>;

export type VerificationInput = VerificationValues;

/** NodeData with key presence: an absent key is "leave unchanged". */
export type NodeDataInput = Partial<NodeValues> &
  Partial<Record<Channel, PortInput[]>> & { kind?: NodeKind; parent_id?: string | null };

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

/** A delta that only adds (a node with its ports, or a wire): runs of them are written as sets. */
export type Addition = AddNode | AddEdge;

export function isAddition(d: Delta): d is Addition {
  return d.type === 'add_node' || d.type === 'add_edge';
}

/** The additions `deltas` starts with, up to its first delta of another type. */
export function leadingAdditions(deltas: readonly Delta[]): Addition[] {
  const lead: Addition[] = [];
  for (const d of deltas) {
    if (!isAddition(d)) break;
    lead.push(d);
  }
  return lead;
}

export interface DeltaBatch {
  deltas: Delta[];
  expectedVersion: number | null;
  /** null when the body had no positions key. */
  positions: Map<string, { x: number; y: number }> | null;
}
