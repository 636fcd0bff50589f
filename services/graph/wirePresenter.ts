/**
 * Maps stored graph content to the read shapes WireNode, WireNodeData, WirePort,
 * WireVerification and WireEdge. Which optional fields a kind shows, their defaults
 * and their order come from the node model (shared/model); the read shape has no
 * aliases.
 */
import type { components } from '../../shared/api/openapi.generated';
import { channelValues, nodeValues, wireData } from '../../shared/model/nodeValues';
import type { EdgeRecord, NodeWithPorts } from './graphRecords';

export type WireNode = components['schemas']['WireNode'];
export type WireEdge = components['schemas']['WireEdge'];

export function presentNode({ node, ports }: NodeWithPorts): WireNode {
  return {
    id: node.id,
    kind: node.kind,
    parent_id: node.parent_id ?? null,
    position: { x: node.x ?? 0, y: node.y ?? 0 },
    data: wireData(node.kind, nodeValues(node), channelValues(ports)),
  };
}

export function presentEdge(edge: EdgeRecord): WireEdge {
  return {
    id: edge.id,
    source: edge.source ?? null,
    source_handle: edge.source_handle ?? null,
    target: edge.target ?? null,
    target_handle: edge.target_handle ?? null,
  };
}
