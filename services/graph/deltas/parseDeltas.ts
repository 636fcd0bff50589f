/**
 * Parses the body of applyDeltas and validateDeltas (POST .../deltas and
 * .../validate) into typed deltas. Pure: no database. Every failure is a per-delta 422 envelope naming the
 * field path: malformed_delta_field (not an object), unknown_delta_type,
 * validation_error (missing, wrong type, out of range).
 */
import { clip } from '../../../shared/text/clip';
import {
  FieldInput,
  INPUT_LAYOUT,
  NODE_FIELDS,
  NODE_KINDS,
  NODE_STATUSES,
} from '../../../shared/model/nodeModel';
import { deltaError } from './deltaErrors';
import {
  Delta,
  DELTA_TYPES,
  DeltaBatch,
  DeltaType,
  NodeDataInput,
  PortInput,
  VerificationInput,
} from './deltaTypes';
import { FieldReader, ItemReader, Json } from './fieldReader';
import { TEXT_LIMITS } from '../../../shared/model/fieldLimits';

const URL_PREFIX = /^https?:\/\//;

function parsePort(item: ItemReader, requireAll: boolean): PortInput {
  const r = item.object();
  if (!r.has('id'))
    r.fail('id', 'a port entry needs an id (entries without an id cannot be matched)');
  const port: PortInput = { id: r.uuid('id') };
  const text = (key: string, max: number) => (r.has(key) ? r.string(key, { max }) : '');
  if (r.has('name') || requireAll) port.name = text('name', TEXT_LIMITS.name);
  if (r.has('type') || requireAll) port.type = text('type', TEXT_LIMITS.type);
  if (r.has('description') || requireAll)
    port.description = text('description', TEXT_LIMITS.description);
  if (r.has('external') || requireAll)
    port.external = r.has('external') ? r.boolean('external') : false;
  if (r.has('contract_name') || requireAll) {
    port.contract_name = r.has('contract_name')
      ? r.nullableString('contract_name', { max: TEXT_LIMITS.contract_name })
      : null;
  }
  return port;
}

function parseVerification(item: ItemReader): VerificationInput {
  const r = item.object();
  return {
    id: r.uuid('id'),
    author: r.oneOf('author', ['user', 'agent'] as const),
    text: r.string('text', { max: TEXT_LIMITS.verificationText }),
    type: r.has('type') ? r.nullableString('type', { max: TEXT_LIMITS.verificationType }) : null,
  };
}

/** One NodeData field, read and checked as the node model says. */
function readField(r: FieldReader, field: string, input: FieldInput, newPorts: boolean): unknown {
  switch (input.read) {
    case 'text':
      return r.string(field, { max: input.max });
    case 'nullable_text': {
      const value = r.nullableString(field, { max: input.max });
      if (input.url && value !== null && !URL_PREFIX.test(value))
        r.fail(field, `${field} must start with http:// or https://`);
      return value;
    }
    case 'boolean':
      return r.boolean(field);
    case 'status':
      return r.oneOf(field, NODE_STATUSES);
    case 'text_list':
      return r.array(field, (i) => i.string(input.itemMax), { max: input.max });
    case 'uuid_list':
      return r.array(field, (i) => i.uuid(), { max: input.max });
    case 'ports':
      return r.array(field, (i) => parsePort(i, newPorts), { max: input.max });
    case 'verifications':
      return r.array(field, parseVerification, { max: input.max });
  }
}

/**
 * NodeData with key presence (an absent key is left out); `newPorts` fills port
 * defaults (add_node). Fields are read in the node model's INPUT_LAYOUT order.
 */
export function parseNodeData(r: FieldReader, newPorts: boolean): NodeDataInput {
  const data: Record<string, unknown> = {};
  for (const field of INPUT_LAYOUT) {
    if (!r.has(field)) continue;
    if (field === 'kind') data.kind = r.oneOf('kind', NODE_KINDS);
    else if (field === 'parent_id') data.parent_id = r.nullableUuid('parent_id');
    else data[field] = readField(r, field, NODE_FIELDS[field].input, newPorts);
  }
  return data as NodeDataInput;
}

function parseDelta(raw: unknown, index: number): Delta {
  const path = `deltas[${index}]`;
  if (!FieldReader.isObject(raw)) {
    throw deltaError({
      error: 'malformed_delta_field',
      message: 'a delta must be a JSON object',
      field: path,
      index,
    });
  }
  const type = raw.type;
  if (typeof type !== 'string' || !(DELTA_TYPES as readonly string[]).includes(type)) {
    throw deltaError({
      error: 'unknown_delta_type',
      message: `type must be one of ${DELTA_TYPES.join(', ')}`,
      field: `${path}.type`,
      index,
      type: typeof type === 'string' ? clip(type) : null,
    });
  }
  const deltaType = type as DeltaType;
  const entity = (key: string) => {
    const value = (raw as Json)[key];
    return typeof value === 'string' ? value : null;
  };
  const nested = (key: string) =>
    FieldReader.isObject(raw[key]) ? (raw[key] as Json).id : undefined;
  const entityId =
    entity('node_id') ??
    entity('edge_id') ??
    (typeof nested('node') === 'string' ? (nested('node') as string) : null) ??
    (typeof nested('edge') === 'string' ? (nested('edge') as string) : null);
  const r = new FieldReader(raw, path, { index, type: deltaType, entityId });

  switch (deltaType) {
    case 'add_node': {
      const n = r.object('node');
      const data = n.has('data') ? parseNodeData(n.object('data'), true) : {};
      const kind = n.has('kind') ? n.oneOf('kind', NODE_KINDS) : (data.kind ?? 'behavior');
      if (data.kind !== undefined && data.kind !== kind) {
        n.fail('data.kind', 'data.kind must equal the node kind', 'kind_immutable');
      }
      const parentId = n.has('parent_id') ? n.nullableUuid('parent_id') : (data.parent_id ?? null);
      if (n.has('parent_id') && data.parent_id !== undefined && data.parent_id !== parentId) {
        n.fail('data.parent_id', 'data.parent_id must equal node.parent_id');
      }
      return {
        type: deltaType,
        index,
        node: { id: n.uuid('id'), kind, parent_id: parentId, data },
      };
    }
    case 'update_node_data': {
      const nodeId = r.uuid('node_id');
      const after = r.has('after')
        ? parseNodeData(r.object('after'), false)
        : r.fail('after', 'after is required');
      return { type: deltaType, index, node_id: nodeId, after };
    }
    case 'reparent_node': {
      const nodeId = r.uuid('node_id');
      if (!r.has('parent_id') && r.value.parent_id !== null) {
        r.fail('parent_id', 'parent_id must be present (null moves the node to the top level)');
      }
      return { type: deltaType, index, node_id: nodeId, parent_id: r.nullableUuid('parent_id') };
    }
    case 'add_edge': {
      const e = r.object('edge');
      const handle = (key: string) => (e.has(key) ? e.nullableUuid(key) : null);
      return {
        type: deltaType,
        index,
        edge: {
          id: e.uuid('id'),
          source_handle: handle('source_handle'),
          target_handle: handle('target_handle'),
        },
      };
    }
    case 'delete_edge':
      return { type: deltaType, index, edge_id: r.uuid('edge_id') };
    default:
      return { type: deltaType, index, node_id: r.uuid('node_id') };
  }
}

/** Parses the whole body; `maxDeltas` is the batch limit (limits.maxDeltasPerBatch). */
export function parseDeltaBatch(
  body: unknown,
  options: { maxDeltas: number; requireVersion: boolean },
): DeltaBatch {
  if (!FieldReader.isObject(body)) {
    throw deltaError({
      error: 'validation_error',
      message: 'the body must be a JSON object',
      field: null,
    });
  }
  const top = new FieldReader(body, '', { index: null, type: null, entityId: null });
  const fail = (key: string, message: string): never => {
    throw deltaError({ error: 'validation_error', message, field: key });
  };
  let rawDeltas: unknown[] = [];
  if (top.has('deltas') && body.deltas !== null) {
    if (!Array.isArray(body.deltas)) fail('deltas', 'deltas must be an array');
    rawDeltas = body.deltas as unknown[];
  }
  if (rawDeltas.length > options.maxDeltas)
    fail('deltas', `at most ${options.maxDeltas} deltas in one batch`);
  let expectedVersion: number | null = null;
  if (top.has('expected_version') && body.expected_version !== null) {
    const v = body.expected_version;
    if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0)
      fail('expected_version', 'expected_version must be a non-negative integer');
    expectedVersion = v as number;
  }
  if (options.requireVersion && rawDeltas.length > 0 && expectedVersion === null) {
    fail('expected_version', 'expected_version is required when deltas is not empty');
  }
  let positions: DeltaBatch['positions'] = null;
  if (top.has('positions') && body.positions !== null) {
    if (!FieldReader.isObject(body.positions)) fail('positions', 'positions must be an object');
    positions = new Map();
    for (const [key, value] of Object.entries(body.positions as Json)) {
      const p = FieldReader.isObject(value)
        ? value
        : fail(`positions.${clip(key)}`, 'a position is an object {x, y}');
      if (
        typeof p.x !== 'number' ||
        !Number.isFinite(p.x) ||
        typeof p.y !== 'number' ||
        !Number.isFinite(p.y)
      ) {
        fail(`positions.${clip(key)}`, 'a position needs numeric x and y');
      }
      positions.set(key.toLowerCase(), { x: p.x as number, y: p.y as number });
    }
  }
  return { deltas: rawDeltas.map(parseDelta), expectedVersion, positions };
}
