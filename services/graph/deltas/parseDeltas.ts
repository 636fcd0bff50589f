/**
 * Parses the body of POST .../deltas and .../validate (§4.14-4.16) into typed
 * deltas. Pure: no database. Every failure is a per-delta 422 envelope naming the
 * field path: malformed_delta_field (not an object), unknown_delta_type,
 * validation_error (missing, wrong type, out of range).
 */
import { clip } from '../../../shared/text/clip';
import { CHANNELS, NODE_KINDS, NODE_STATUSES } from '../../../shared/model/nodeModel';
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
import { LIST_LIMITS, TEXT_LIMITS } from './fieldLimits';

export const MAX_ALIASES = LIST_LIMITS.aliases;
export const MAX_CONTRACT_NAME = TEXT_LIMITS.contract_name;
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
      ? r.nullableString('contract_name', { max: MAX_CONTRACT_NAME })
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

/** NodeData with key presence (§2.1.6); `newPorts` fills port defaults (add_node). */
export function parseNodeData(r: FieldReader, newPorts: boolean): NodeDataInput {
  const data: NodeDataInput = {};
  if (r.has('kind')) data.kind = r.oneOf('kind', NODE_KINDS);
  if (r.has('name')) data.name = r.string('name', { max: TEXT_LIMITS.name });
  if (r.has('aliases'))
    data.aliases = r.array('aliases', (i) => i.string(TEXT_LIMITS.name), { max: MAX_ALIASES });
  if (r.has('description'))
    data.description = r.string('description', { max: TEXT_LIMITS.description });
  for (const channel of CHANNELS) {
    if (r.has(channel)) {
      data[channel] = r.array(channel, (i) => parsePort(i, newPorts), {
        max: LIST_LIMITS.ports,
      });
    }
  }
  if (r.has('constraints')) {
    data.constraints = r.array('constraints', (i) => i.string(TEXT_LIMITS.constraint), {
      max: LIST_LIMITS.constraints,
    });
  }
  if (r.has('verifications')) {
    data.verifications = r.array('verifications', parseVerification, {
      max: LIST_LIMITS.verifications,
    });
  }
  if (r.has('parent_id')) data.parent_id = r.nullableUuid('parent_id');
  if (r.has('is_test_node')) data.is_test_node = r.boolean('is_test_node');
  if (r.has('status')) data.status = r.oneOf('status', NODE_STATUSES);
  for (const key of ['user_kind', 'language', 'external_kind', 'protocol'] as const) {
    if (r.has(key)) data[key] = r.nullableString(key, { max: TEXT_LIMITS.label });
  }
  if (r.has('path_prefix'))
    data.path_prefix = r.nullableString('path_prefix', { max: TEXT_LIMITS.path_prefix });
  if (r.has('documentation_url')) {
    const url = r.nullableString('documentation_url', { max: TEXT_LIMITS.documentation_url });
    if (url !== null && !URL_PREFIX.test(url))
      r.fail('documentation_url', 'documentation_url must start with http:// or https://');
    data.documentation_url = url;
  }
  if (r.has('is_external')) data.is_external = r.boolean('is_external');
  if (r.has('source_decisions'))
    data.source_decisions = r.array('source_decisions', (i) => i.uuid(), {
      max: LIST_LIMITS.source_decisions,
    });
  return data;
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

/** Parses the whole body; `maxDeltas` is the batch limit (interpretations: 1000). */
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
