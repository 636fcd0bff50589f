/**
 * Maps stored graph content to the read shapes WireNode, WireNodeData, WirePort, WireVerification,
 * WireEdge. The optional scalars follow the node-kind field matrix (absent = not applicable to the
 * kind); the read shape has no aliases.
 */
import type { components } from '../../shared/api/openapi.generated';
import type {
  EdgeRecord,
  NodeKind,
  NodeWithPorts,
  PortRecord,
  VerificationRecord,
} from './graphRecords';

export type WireNode = components['schemas']['WireNode'];
export type WireNodeData = components['schemas']['WireNodeData'];
export type WirePort = components['schemas']['WirePort'];
export type WireEdge = components['schemas']['WireEdge'];

/** Which optional scalars each kind carries on the wire. */
const APPLICABLE: Record<NodeKind, ReadonlySet<string>> = {
  behavior: new Set(['external_kind', 'protocol']),
  boundary: new Set(['user_kind', 'path_prefix', 'language']),
  state: new Set(['user_kind']),
  io: new Set([]),
  interface: new Set([]),
};

export function presentPort(port: PortRecord): WirePort {
  return {
    id: port.id,
    name: port.name,
    type: port.type,
    description: port.description,
    external: port.external,
    contract_name: port.contract_name ?? null,
  };
}

export function parseVerifications(text: string | undefined | null): VerificationRecord[] {
  if (!text) return [];
  return JSON.parse(text) as VerificationRecord[];
}

export function presentNode({ node, ports }: NodeWithPorts): WireNode {
  const data: WireNodeData = {
    name: node.name,
    description: node.description,
    is_external: node.is_external,
    is_test_node: node.is_test_node,
    status: node.status as WireNodeData['status'], // checked against NODE_STATUSES on write
    inputs: ports.inputs.map(presentPort),
    outputs: ports.outputs.map(presentPort),
    config: ports.config.map(presentPort),
    constraints: node.constraints ?? [],
    verifications: parseVerifications(node.verifications).map((v) => ({
      id: v.id,
      author: v.author,
      text: v.text,
      type: v.type ?? null,
    })),
    documentation_url: node.documentation_url ?? null,
    source_decisions: node.source_decisions ?? [],
  };
  const applicable = APPLICABLE[node.kind];
  for (const field of [
    'user_kind',
    'path_prefix',
    'language',
    'external_kind',
    'protocol',
  ] as const) {
    if (applicable.has(field)) data[field] = node[field] ?? null;
  }
  return {
    id: node.id,
    kind: node.kind,
    parent_id: node.parent_id ?? null,
    position: { x: node.x ?? 0, y: node.y ?? 0 },
    data,
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
