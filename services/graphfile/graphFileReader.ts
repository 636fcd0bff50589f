/**
 * Reads a graph file of any supported schema_version and upgrades it to the current shape: 6 is the
 * snake_case envelope {schema_version, project_name, nodes, edges}; 3 to 5 spell every key in
 * camelCase (schemaVersion, projectName, parentId, sourceHandle, isExternal, contractName, ...);
 * state nodes arrived at 4 and io nodes at 5, so a version-3 file may not hold a state node, nor a
 * version-3 or -4 file an io node. Any other version: 422 unsupported_schema_version.
 */
import { clip } from '../../shared/text/clip';
import { InvalidInputError } from '../../shared/errors/domainErrors';
import type { NodeKind } from '../../shared/model/nodeModel';
import { fileError } from './fileErrors';

export const CURRENT_SCHEMA_VERSION = 6;
export const SUPPORTED_SCHEMA_VERSIONS = [3, 4, 5, 6] as const;

/** The schema version each node kind arrived at. */
const KIND_SINCE: Record<NodeKind, number> = {
  behavior: 3,
  boundary: 3,
  interface: 3,
  state: 4,
  io: 5,
};

type Json = Record<string, unknown>;

export interface GraphFileContent {
  schemaVersion: number;
  projectName: unknown;
  /** Nodes and edges in the version-6 (snake_case) spelling, not yet validated. */
  nodes: unknown[];
  edges: unknown[];
}

const isObject = (v: unknown): v is Json =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

const MAX_DEPTH = 32;

const snake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/**
 * camelCase keys to snake_case, at every depth. A key that already holds an
 * underscore is not a key of those versions: it is dropped like any unknown key.
 */
export function upgradeKeys(value: unknown, depth = 0): unknown {
  // the format nests a few levels; anything deeper is left for the parser to refuse
  if (depth > MAX_DEPTH) return value;
  if (Array.isArray(value)) return value.map((v) => upgradeKeys(v, depth + 1));
  if (!isObject(value)) return value;
  const out: Json = {};
  for (const [key, inner] of Object.entries(value)) {
    if (key.includes('_')) continue;
    out[snake(key)] = upgradeKeys(inner, depth + 1);
  }
  return out;
}

function checkKinds(nodes: unknown[], version: number): void {
  nodes.forEach((node, index) => {
    if (!isObject(node)) return;
    const data = isObject(node.data) ? node.data : {};
    for (const [field, kind] of [
      ['kind', node.kind],
      ['data.kind', data.kind],
    ] as const) {
      const since = typeof kind === 'string' ? KIND_SINCE[kind as NodeKind] : undefined;
      if (since !== undefined && since > version) {
        throw fileError(
          `nodes[${index}].${field}`,
          `schema_version ${version} has no ${String(kind)} nodes (state nodes arrived at 4, io nodes at 5)`,
          { index, type: 'add_node', entityId: typeof node.id === 'string' ? node.id : null },
        );
      }
    }
  });
}

export function readGraphFile(body: unknown): GraphFileContent {
  const top = isObject(body) ? body : {};
  const version = top.schema_version ?? top.schemaVersion;
  if (
    typeof version !== 'number' ||
    !(SUPPORTED_SCHEMA_VERSIONS as readonly number[]).includes(version)
  ) {
    // the value is echoed cut short: a file may put anything there
    const got =
      typeof version === 'string' ? clip(version) : typeof version === 'number' ? version : null;
    throw new InvalidInputError(
      'unsupported_schema_version',
      `schema_version must be one of ${SUPPORTED_SCHEMA_VERSIONS.join(', ')} (got ${JSON.stringify(got)})`,
      { schema_version: got, supported: [...SUPPORTED_SCHEMA_VERSIONS] },
    );
  }
  const file = (version >= CURRENT_SCHEMA_VERSION ? top : upgradeKeys(top)) as Json;
  for (const list of ['nodes', 'edges'] as const) {
    if (!Array.isArray(file[list])) throw fileError(list, `${list} must be an array`);
  }
  const nodes = file.nodes as unknown[];
  checkKinds(nodes, version);
  return {
    schemaVersion: version,
    projectName: file.project_name,
    nodes,
    edges: file.edges as unknown[],
  };
}
