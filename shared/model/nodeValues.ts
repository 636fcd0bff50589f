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
  isChannel,
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

/**
 * A maker of records with the keys `keys`, in that order: each record is a copy of a
 * template that has every key already, and the caller sets their values. Node's engine
 * (V8, as of Node 20) keeps such a record a fast object, cheap to copy and to send to
 * Neo4j; one whose properties are added one by one under computed names becomes a slow
 * dictionary past about a dozen of them, and adding a property to a spread copy costs
 * about a microsecond. Measured for a node's 20 stored fields: set on a copy of a
 * template 0.6 µs; added to `{}` 1.9 µs (a dictionary, whose spread copy with four more
 * properties then takes 7 µs). So a record built field by field from the model has all
 * its keys in its maker, and is never extended afterwards.
 */
export function recordMaker(keys: readonly string[]): () => Fields {
  const template: Fields = Object.fromEntries(keys.map((key) => [key, null]));
  return () => ({ ...template });
}

/** A default as a value of its own (a list default is a new empty list each time). */
const fresh = (value: unknown) => (Array.isArray(value) ? [] : value);

/**
 * `from`'s value of each field of `defaults` set on `out`; an absent or null one takes
 * `base`'s, then the default.
 */
function fill(out: Fields, defaults: Fields, from: Fields, base?: Fields): Fields {
  for (const key in defaults) {
    const own = from[key];
    const value = defaults[key];
    out[key] = own === undefined ? (base?.[key] ?? fresh(value)) : (own ?? fresh(value));
  }
  return out;
}

const verificationRecord = recordMaker(['id', ...Object.keys(VERIFICATION_FIELDS)]);
/** A port's keys as PortValues has them: its id, then its fields. */
export const PORT_VALUE_KEYS = ['id', ...Object.keys(PORT_FIELDS)] as (keyof PortValues)[];
const portRecord = recordMaker(PORT_VALUE_KEYS);
const edgeRecord = recordMaker(['id', ...Object.keys(EDGE_FIELDS)]);

export function verificationValues(v: Fields & { id: string }): VerificationValues {
  const out = verificationRecord();
  out.id = v.id;
  return fill(out, VERIFICATION_FIELDS, v) as VerificationValues;
}

/** The verifications a node stores as JSON text ('' or absent: none). */
export function parseVerifications(text: string | undefined | null): VerificationValues[] {
  if (!text) return [];
  return (JSON.parse(text) as (Fields & { id: string })[]).map(verificationValues);
}

/** A port with every field; fields `port` lacks come from `base` (the port it updates). */
export function portValues(port: Fields & { id: string }, base?: PortValues): PortValues {
  const out = portRecord();
  out.id = port.id;
  return fill(out, PORT_FIELDS, port, base) as PortValues;
}

/** A node's ports, each with every field, by channel. */
export function channelValues(
  ports: Record<Channel, (Fields & { id: string })[]>,
): Record<Channel, PortValues[]> {
  const [inputs, outputs, config] = CHANNELS.map((c) => ports[c].map((p) => portValues(p)));
  return { inputs, outputs, config };
}

export function edgeValues(edge: Fields & { id: string }): EdgeValues {
  const out = edgeRecord();
  out.id = edge.id;
  return fill(out, EDGE_FIELDS, edge) as EdgeValues;
}

const valueRecord = recordMaker(VALUE_FIELD_NAMES);

/**
 * A node's own fields from its stored properties (or from nothing: a new node), set on
 * `out` (a record with every value field among its keys: recordMaker).
 */
export function nodeValues(stored: Fields = {}, out: Fields = valueRecord()): NodeValues {
  for (const field of VALUE_FIELD_NAMES) {
    const spec: NodeFieldSpec = NODE_FIELDS[field];
    const value = stored[field];
    out[field] = spec.storedAsJson
      ? parseVerifications(value as string | undefined)
      : (value ?? fresh(spec.default));
  }
  return out as NodeValues;
}

/**
 * Whether a value is its field's default (or null): the store leaves such a value out (a
 * null property is no property), since every reader fills an absent field with its
 * default (nodeValues, portValues, the statements' coalesce). Most of a node's fields
 * hold their defaults, and each stored property costs a large import's writes and the
 * store's size.
 */
function isDefaultValue(value: unknown, fieldDefault: unknown): boolean {
  if (value === null || value === undefined || value === fieldDefault) return true;
  return Array.isArray(value) && value.length === 0 && Array.isArray(fieldDefault);
}

/**
 * Fields a record stores even at their default, because statements seek or compare them
 * as stored: a node's name (the top-level read seeks every named node, the name search
 * its key); a port's name and type (a wire's type check compares them).
 */
const NODE_ALWAYS_STORED: ReadonlySet<string> = new Set(['name']);
const PORT_ALWAYS_STORED: ReadonlySet<string> = new Set(['name', 'type']);

/** A field's value as stored: null (no property) for a default the store leaves out. */
function storedValue(
  always: ReadonlySet<string>,
  field: string,
  value: unknown,
  fieldDefault: unknown,
): unknown {
  return !always.has(field) && isDefaultValue(value, fieldDefault) ? null : value;
}

/**
 * A node's own fields as Neo4j properties, set on `out` (a record with every value field
 * among its keys: recordMaker); a default is null (isDefaultValue), so that a write over
 * an earlier state (`SET n += props`) removes the property instead of keeping it.
 */
export function storedProps(values: NodeValues, out: Fields = valueRecord()): Fields {
  for (const field of VALUE_FIELD_NAMES) {
    const spec: NodeFieldSpec = NODE_FIELDS[field];
    const value = storedValue(NODE_ALWAYS_STORED, field, values[field], spec.default);
    out[field] = spec.storedAsJson && value !== null ? JSON.stringify(value) : value;
  }
  return out;
}

/** A port's fields as Neo4j properties, set on `out` (keys as storedProps says). */
export function storedPortProps(port: PortValues, out: Fields): Fields {
  out.id = port.id;
  for (const key in PORT_FIELDS)
    out[key] = storedValue(
      PORT_ALWAYS_STORED,
      key,
      port[key as keyof PortValues],
      (PORT_FIELDS as Fields)[key],
    );
  return out;
}

function laidOut(
  layout: readonly NodeFieldName[],
  include: (field: NodeFieldName) => boolean,
  values: NodeValues,
  ports: Record<Channel, PortValues[]>,
): Fields {
  const valueOf = (field: NodeFieldName) =>
    isChannel(field) ? ports[field] : (values as Fields)[field];
  return Object.fromEntries(layout.filter(include).map((field) => [field, valueOf(field)]));
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
