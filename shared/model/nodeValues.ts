/**
 * Builds full values from the node model: a stored node, port, verification or wire
 * with each field it lacks (written before the field existed, or not sent) set to its
 * default; a node's stored properties; and a node's data laid out in the read shape
 * (WireNodeData) and in the graph file's shape (NodeData).
 */
import type { components } from '../api/openapi.generated';
import {
  carries,
  Channel,
  CHANNELS,
  EDGE_FIELDS,
  EdgeValues,
  FILE_LAYOUT,
  NODE_FIELDS,
  NodeFieldName,
  NodeFieldSpec,
  NodeKind,
  NodeValues,
  PORT_FIELDS,
  PortValues,
  VALUE_FIELD_NAMES,
  VERIFICATION_FIELDS,
  VerificationValues,
  WIRE_LAYOUT,
} from './nodeModel';

type Fields = Record<string, unknown>;

/** A default as a value of its own (a list default is a new empty list each time). */
const fresh = (value: unknown) => (Array.isArray(value) ? [] : value);

/** `from`'s value of each field; an absent or null one takes `base`'s, then the default. */
function filled(defaults: Fields, from: Fields, base?: Fields): Fields {
  const out: Fields = {};
  for (const [key, value] of Object.entries(defaults)) {
    const own = from[key];
    out[key] = own === undefined ? (base?.[key] ?? fresh(value)) : (own ?? fresh(value));
  }
  return out;
}

export function verificationValues(v: Fields & { id: string }): VerificationValues {
  return { id: v.id, ...filled(VERIFICATION_FIELDS, v) } as VerificationValues;
}

/** The verifications a node stores as JSON text ('' or absent: none). */
export function parseVerifications(text: string | undefined | null): VerificationValues[] {
  if (!text) return [];
  return (JSON.parse(text) as (Fields & { id: string })[]).map(verificationValues);
}

/** A port with every field; fields `port` lacks come from `base` (the port it updates). */
export function portValues(port: Fields & { id: string }, base?: PortValues): PortValues {
  return { id: port.id, ...filled(PORT_FIELDS, port, base) } as PortValues;
}

/** A node's ports, each with every field, by channel. */
export function channelValues(
  ports: Record<Channel, (Fields & { id: string })[]>,
): Record<Channel, PortValues[]> {
  const [inputs, outputs, config] = CHANNELS.map((c) => ports[c].map((p) => portValues(p)));
  return { inputs, outputs, config };
}

export function edgeValues(edge: Fields & { id: string }): EdgeValues {
  return { id: edge.id, ...filled(EDGE_FIELDS, edge) } as EdgeValues;
}

/** A node's own fields from its stored properties (or from nothing: a new node). */
export function nodeValues(stored: Fields = {}): NodeValues {
  const out: Fields = {};
  for (const field of VALUE_FIELD_NAMES) {
    const spec: NodeFieldSpec = NODE_FIELDS[field];
    const value = stored[field];
    out[field] = spec.storedAsJson
      ? parseVerifications(value as string | undefined)
      : (value ?? fresh(spec.default));
  }
  return out as NodeValues;
}

/** A node's own fields as Neo4j properties. */
export function storedProps(values: NodeValues): Fields {
  const out: Fields = {};
  for (const field of VALUE_FIELD_NAMES) {
    const spec: NodeFieldSpec = NODE_FIELDS[field];
    out[field] = spec.storedAsJson ? JSON.stringify(values[field]) : values[field];
  }
  return out;
}

function laidOut(
  layout: readonly NodeFieldName[],
  include: (field: NodeFieldName) => boolean,
  values: NodeValues,
  ports: Record<Channel, PortValues[]>,
): Fields {
  const all: Fields = { ...values, ...ports };
  return Object.fromEntries(layout.filter(include).map((field) => [field, all[field]]));
}

/** WireNodeData: the fields of the read shape, a by-kind one only where the kind carries it. */
export function wireData(
  kind: NodeKind,
  values: NodeValues,
  ports: Record<Channel, PortValues[]>,
): components['schemas']['WireNodeData'] {
  const onWire = (field: NodeFieldName) => {
    const wire = NODE_FIELDS[field].wire;
    return wire === 'always' || (wire === 'by_kind' && carries(kind, field));
  };
  return laidOut(WIRE_LAYOUT, onWire, values, ports) as components['schemas']['WireNodeData'];
}

/** A graph file node's data: every NodeData field its kind carries, aliases included. */
export function fileData(
  kind: NodeKind,
  values: NodeValues,
  ports: Record<Channel, PortValues[]>,
): components['schemas']['NodeData'] {
  return laidOut(FILE_LAYOUT, (field) => carries(kind, field), values, ports);
}
