/** Converts between stored records, NodeState (the shape checker's view) and node patches. */
import type { Channel, NodeKind, NodeRecord, PortRecord } from '../graphRecords';
import { parseVerifications } from '../wirePresenter';
import { NodeDataInput, PORT_CHANNELS, PortInput } from './deltaTypes';
import type { FullPort, NodeState } from './nodeShape';

export function emptyState(kind: NodeKind): NodeState {
  return {
    kind,
    name: '',
    aliases: [],
    description: '',
    constraints: [],
    verifications: [],
    is_test_node: false,
    status: 'idle',
    user_kind: null,
    path_prefix: null,
    language: null,
    is_external: false,
    external_kind: null,
    protocol: null,
    documentation_url: null,
    source_decisions: [],
    ports: { inputs: [], outputs: [], config: [] },
  };
}

function fullPort(port: PortInput | PortRecord, base?: FullPort): FullPort {
  return {
    id: port.id,
    name: port.name ?? base?.name ?? '',
    type: port.type ?? base?.type ?? '',
    description: port.description ?? base?.description ?? '',
    external: port.external ?? base?.external ?? false,
    contract_name:
      port.contract_name !== undefined ? port.contract_name : (base?.contract_name ?? null),
  };
}

export function stateFromRecord(node: NodeRecord, ports: PortRecord[]): NodeState {
  const state = emptyState(node.kind);
  const grouped: Record<Channel, FullPort[]> = { inputs: [], outputs: [], config: [] };
  for (const port of [...ports].sort((a, b) => a.ord - b.ord))
    grouped[port.channel].push(fullPort(port));
  return {
    ...state,
    name: node.name ?? '',
    aliases: node.aliases ?? [],
    description: node.description ?? '',
    constraints: node.constraints ?? [],
    verifications: parseVerifications(node.verifications),
    is_test_node: node.is_test_node ?? false,
    status: node.status ?? 'idle',
    user_kind: node.user_kind ?? null,
    path_prefix: node.path_prefix ?? null,
    language: node.language ?? null,
    is_external: node.is_external ?? false,
    external_kind: node.external_kind ?? null,
    protocol: node.protocol ?? null,
    documentation_url: node.documentation_url ?? null,
    source_decisions: node.source_decisions ?? [],
    ports: grouped,
  };
}

const SCALARS = [
  'name',
  'aliases',
  'description',
  'constraints',
  'is_test_node',
  'status',
  'user_kind',
  'path_prefix',
  'language',
  'is_external',
  'external_kind',
  'protocol',
  'documentation_url',
  'source_decisions',
] as const;

/** Applies a patch with key presence; port lists replace their channel. */
export function applyPatch(state: NodeState, patch: NodeDataInput): NodeState {
  const next: NodeState = { ...state, ports: { ...state.ports } };
  for (const key of SCALARS) {
    if (patch[key] !== undefined) (next as unknown as Record<string, unknown>)[key] = patch[key];
  }
  if (patch.verifications !== undefined) next.verifications = patch.verifications;
  const existing = new Map<string, FullPort>();
  for (const channel of PORT_CHANNELS)
    for (const p of state.ports[channel]) existing.set(`${channel}:${p.id}`, p);
  for (const channel of PORT_CHANNELS) {
    const list = patch[channel];
    if (list !== undefined)
      next.ports[channel] = list.map((p) => fullPort(p, existing.get(`${channel}:${p.id}`)));
  }
  return next;
}

/** Node properties as stored (everything but ports and position). */
export function nodeProps(state: NodeState): Record<string, unknown> {
  return {
    kind: state.kind,
    name: state.name,
    aliases: state.aliases,
    description: state.description,
    constraints: state.constraints,
    verifications: JSON.stringify(state.verifications),
    is_test_node: state.is_test_node,
    status: state.status,
    user_kind: state.user_kind,
    path_prefix: state.path_prefix,
    language: state.language,
    is_external: state.is_external,
    external_kind: state.external_kind,
    protocol: state.protocol,
    documentation_url: state.documentation_url,
    source_decisions: state.source_decisions,
  };
}

export function portProps(
  branchId: string,
  nodeId: string,
  state: NodeState,
): Record<string, unknown>[] {
  return PORT_CHANNELS.flatMap((channel) =>
    state.ports[channel].map((p, ord) => ({
      ...p,
      branch_id: branchId,
      node_id: nodeId,
      channel,
      ord,
    })),
  );
}
