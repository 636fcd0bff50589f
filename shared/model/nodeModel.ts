/**
 * The node model: every field a node, a port, a verification and a wire (edge) has,
 * its default, and which node kinds may carry it. The delta engine, the read
 * presenters, merge snapshots and the graph file all read their fields from here,
 * and the types follow the generated OpenAPI types (NodeData, WirePort,
 * WireVerification, Edge). Adding a node field is a change to
 * openapi/graph-design-service.yaml and to this file (docs/NODE_MODEL.md).
 * nodeModel.spec.ts walks the document's schemas and fails when the document and
 * this file disagree on a field, its default or the kinds that carry it.
 */
import type { components } from '../api/openapi.generated';
import { LIST_LIMITS, TEXT_LIMITS } from './fieldLimits';

type Schemas = components['schemas'];

export type NodeKind = Schemas['NodeKind'];
export const NODE_KINDS = [
  'behavior',
  'boundary',
  'state',
  'io',
  'interface',
] as const satisfies readonly NodeKind[];

export type NodeStatus = Schemas['NodeStatus'];
export const NODE_STATUSES = [
  'idle',
  'pending',
  'running',
  'succeeded',
  'failed',
] as const satisfies readonly NodeStatus[];

/** A node's three port lists; only inputs and outputs are wire endpoints. */
export type Channel = 'inputs' | 'outputs' | 'config';
export const CHANNELS = ['inputs', 'outputs', 'config'] as const satisfies readonly Channel[];

/**
 * The channel of the port at each end of a wire: a wire leaves an output and enters an
 * input (the writes refuse any other wire, invalid_endpoint; the scoped reads seek a
 * port's wires only at the end its channel allows).
 */
export const WIRE_END_CHANNELS = { source: 'outputs', target: 'inputs' } as const satisfies Record<
  'source' | 'target',
  Channel
>;

/** A port with every field present (the WirePort read shape). */
export type PortValues = Schemas['WirePort'];
/** A verification with every field present (the WireVerification read shape). */
export type VerificationValues = Schemas['WireVerification'];
/** A wire's own fields (the Edge write shape, handles present). */
export type EdgeValues = { id: string } & { [K in EdgeFieldName]: string | null };

type NodeData = Schemas['NodeData'];
/** NodeData fields a node owns; kind and parent_id place the node rather than describe it. */
export type NodeFieldName = Exclude<keyof NodeData, 'kind' | 'parent_id'>;
/** The node fields stored on the node itself (ports are stored apart). */
export type ValueFieldName = Exclude<NodeFieldName, Channel>;

/** A node's own fields, every one present. */
export type NodeValues = {
  [K in ValueFieldName]-?: K extends 'verifications'
    ? VerificationValues[]
    : Exclude<NodeData[K], undefined>;
};

/** A whole node as the kind rules judge it: kind, own fields and ports by channel. */
export type NodeState = NodeValues & { kind: NodeKind; ports: Record<Channel, PortValues[]> };

/**
 * How a field appears in the read shape (WireNodeData): always, only on the kinds
 * that carry it (absent = not applicable), or never (the read shape has no aliases).
 */
export type WirePresence = 'always' | 'by_kind' | 'never';

/** How the delta parser reads and checks a field sent in NodeData. */
export type FieldInput =
  | { read: 'text'; max: number }
  | { read: 'nullable_text'; max: number; url?: true }
  | { read: 'boolean' }
  | { read: 'status' }
  | { read: 'text_list'; max: number; itemMax: number }
  | { read: 'uuid_list'; max: number }
  | { read: 'ports'; max: number }
  | { read: 'verifications'; max: number };

export interface NodeFieldSpec {
  input: FieldInput;
  /** The value of a field never written. Lists default to empty. */
  default: string | boolean | null | readonly never[];
  /** The kinds that may hold a value other than the default; absent = every kind. */
  kinds?: readonly NodeKind[];
  /** Only external nodes of those kinds may hold it. */
  externalOnly?: true;
  /** Why a node of another kind may not carry it (the field_not_allowed message). */
  refusal?: string;
  wire: WirePresence;
  /** Neo4j properties hold no maps: stored as JSON text. */
  storedAsJson?: true;
}

/**
 * Every field of NodeData a node owns. The order is the order in which the kind
 * rules are checked (the first one a node breaks is the one reported) and the
 * order of a node's stored properties.
 */
export const NODE_FIELDS = {
  name: { input: { read: 'text', max: TEXT_LIMITS.name }, default: '', wire: 'always' },
  aliases: {
    input: { read: 'text_list', max: LIST_LIMITS.aliases, itemMax: TEXT_LIMITS.name },
    default: [],
    wire: 'never',
  },
  description: {
    input: { read: 'text', max: TEXT_LIMITS.description },
    default: '',
    wire: 'always',
  },
  inputs: { input: { read: 'ports', max: LIST_LIMITS.ports }, default: [], wire: 'always' },
  outputs: { input: { read: 'ports', max: LIST_LIMITS.ports }, default: [], wire: 'always' },
  constraints: {
    input: { read: 'text_list', max: LIST_LIMITS.constraints, itemMax: TEXT_LIMITS.constraint },
    default: [],
    wire: 'always',
  },
  is_test_node: { input: { read: 'boolean' }, default: false, wire: 'always' },
  status: { input: { read: 'status' }, default: 'idle', wire: 'always' },
  user_kind: {
    input: { read: 'nullable_text', max: TEXT_LIMITS.label },
    default: null,
    kinds: ['boundary', 'state'],
    refusal: 'only boundary and state nodes carry user_kind',
    wire: 'by_kind',
  },
  path_prefix: {
    input: { read: 'nullable_text', max: TEXT_LIMITS.path_prefix },
    default: null,
    kinds: ['boundary'],
    refusal: 'only boundary nodes carry path_prefix',
    wire: 'by_kind',
  },
  language: {
    input: { read: 'nullable_text', max: TEXT_LIMITS.label },
    default: null,
    kinds: ['boundary'],
    refusal: 'only boundary nodes carry language',
    wire: 'by_kind',
  },
  config: {
    input: { read: 'ports', max: LIST_LIMITS.ports },
    default: [],
    kinds: ['behavior', 'boundary', 'interface'],
    refusal: 'state and io nodes have no config ports',
    wire: 'always',
  },
  verifications: {
    input: { read: 'verifications', max: LIST_LIMITS.verifications },
    default: [],
    kinds: ['behavior', 'interface'],
    refusal: 'only behavior and interface nodes carry verifications',
    wire: 'always',
    storedAsJson: true,
  },
  is_external: {
    input: { read: 'boolean' },
    default: false,
    kinds: ['behavior', 'boundary'],
    refusal: 'only behavior and boundary nodes may be external',
    wire: 'always',
  },
  external_kind: {
    input: { read: 'nullable_text', max: TEXT_LIMITS.label },
    default: null,
    kinds: ['behavior'],
    externalOnly: true,
    refusal: 'external_kind is for external behavior nodes only',
    wire: 'by_kind',
  },
  protocol: {
    input: { read: 'nullable_text', max: TEXT_LIMITS.label },
    default: null,
    kinds: ['behavior'],
    externalOnly: true,
    refusal: 'protocol is for external behavior nodes only',
    wire: 'by_kind',
  },
  documentation_url: {
    input: { read: 'nullable_text', max: TEXT_LIMITS.documentation_url, url: true },
    default: null,
    wire: 'always',
  },
  source_decisions: {
    input: { read: 'uuid_list', max: LIST_LIMITS.source_decisions },
    default: [],
    wire: 'always',
  },
} as const satisfies Record<NodeFieldName, NodeFieldSpec>;

export const isChannel = (field: string): field is Channel =>
  (CHANNELS as readonly string[]).includes(field);

export const NODE_FIELD_NAMES = Object.keys(NODE_FIELDS) as NodeFieldName[];
export const VALUE_FIELD_NAMES = NODE_FIELD_NAMES.filter((f): f is ValueFieldName => !isChannel(f));

/**
 * The order in which the delta parser reads NodeData: the first bad field is the one
 * reported, and a batch's node data is recorded on the change trail in this order.
 */
export const INPUT_LAYOUT: readonly (keyof NodeData)[] = [
  'kind',
  'name',
  'aliases',
  'description',
  'inputs',
  'outputs',
  'config',
  'constraints',
  'verifications',
  'parent_id',
  'is_test_node',
  'status',
  'user_kind',
  'language',
  'external_kind',
  'protocol',
  'path_prefix',
  'documentation_url',
  'is_external',
  'source_decisions',
];

/** The key order of WireNodeData as the read presenters write it (clients see it). */
export const WIRE_LAYOUT: readonly NodeFieldName[] = [
  'name',
  'description',
  'is_external',
  'is_test_node',
  'status',
  'inputs',
  'outputs',
  'config',
  'constraints',
  'verifications',
  'documentation_url',
  'source_decisions',
  'user_kind',
  'path_prefix',
  'language',
  'external_kind',
  'protocol',
];

/** The key order of a graph file node's data (exported files are read and diffed by people). */
export const FILE_LAYOUT: readonly NodeFieldName[] = [
  'name',
  'aliases',
  'description',
  'inputs',
  'outputs',
  'config',
  'verifications',
  'user_kind',
  'path_prefix',
  'language',
  'is_external',
  'external_kind',
  'protocol',
  'constraints',
  'is_test_node',
  'status',
  'documentation_url',
  'source_decisions',
];

/** Port fields besides id, with their defaults (the Port write shape). */
export const PORT_FIELDS = {
  name: '',
  type: '',
  description: '',
  external: false,
  contract_name: null,
} as const satisfies { [K in Exclude<keyof PortValues, 'id'>]: PortValues[K] };

/** Verification fields besides id: required ones have no default (undefined). */
export const VERIFICATION_FIELDS = {
  author: undefined,
  text: undefined,
  type: null,
} as const satisfies {
  [K in Exclude<keyof VerificationValues, 'id'>]: VerificationValues[K] | undefined;
};

/** A wire's handles (the Edge write shape); a null handle is an unpinned wire. */
export const EDGE_FIELDS = {
  source_handle: null,
  target_handle: null,
} as const satisfies { [K in Exclude<keyof Schemas['Edge'], 'id'>]: null };
export type EdgeFieldName = keyof typeof EDGE_FIELDS;

/** Whether a node of `kind` may carry `field` (external-only fields: when it is external). */
export function carries(kind: NodeKind, field: NodeFieldName): boolean {
  const spec: NodeFieldSpec = NODE_FIELDS[field];
  return spec.kinds === undefined || spec.kinds.includes(kind);
}
