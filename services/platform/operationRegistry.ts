/**
 * Which process serves each OpenAPI operation, read from the document itself: every
 * operation carries `x-service: <owner>`, the one place ownership is written. In
 * separate-process mode the gateway answers its own operations (the probes and
 * /metrics) and forwards every other one to its owner's process; in process, the
 * gateway runs them all. The gateway, each service process and the tests all read
 * this registry. A document with an operation whose owner is missing or unknown is
 * refused at start-up with every such operation named.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { SERVICE_NAMES, ServiceName } from '../../shared/config/serviceNames';

/** The OpenAPI document every process routes, validates and registers operations from. */
export const OPENAPI_PATH = join(__dirname, '..', '..', 'openapi', 'graph-design-service.yaml');

/** A service process of separate-process mode, or the gateway itself. */
export type OperationOwner = ServiceName | 'gateway';

export const OWNER_NAMES: readonly OperationOwner[] = ['gateway', ...SERVICE_NAMES];

export interface RegisteredOperation {
  operationId: string;
  owner: OperationOwner;
  /** Upper-case HTTP method. */
  method: string;
  path: string;
  /** True when the operation takes an Idempotency-Key header (its process keeps the keys). */
  idempotencyKey: boolean;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

export class OperationRegistryError extends Error {
  constructor(
    readonly problems: string[],
    source: string,
  ) {
    super(`the OpenAPI document ${source} cannot be served:\n  - ${problems.join('\n  - ')}`);
    this.name = 'OperationRegistryError';
  }
}

export class OperationRegistry {
  private readonly byId: ReadonlyMap<string, RegisteredOperation>;

  constructor(operations: readonly RegisteredOperation[]) {
    this.byId = new Map(operations.map((op) => [op.operationId, op]));
  }

  get operations(): RegisteredOperation[] {
    return [...this.byId.values()];
  }

  ownerOf(operationId: string): OperationOwner | undefined {
    return this.byId.get(operationId)?.owner;
  }

  /** The operationIds `owner` serves, in document order. */
  operationsOf(owner: OperationOwner): string[] {
    return this.operations.filter((op) => op.owner === owner).map((op) => op.operationId);
  }

  /** The operations a service process (not the gateway) serves in separate-process mode. */
  serviceOperations(): RegisteredOperation[] {
    return this.operations.filter((op) => op.owner !== 'gateway');
  }

  get(operationId: string): RegisteredOperation | undefined {
    return this.byId.get(operationId);
  }
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A parameter, with a local `$ref` (#/components/parameters/...) followed. */
function resolved(document: Json, parameter: unknown): Json {
  const ref = isObject(parameter) ? parameter.$ref : undefined;
  if (typeof ref !== 'string' || !ref.startsWith('#/')) return isObject(parameter) ? parameter : {};
  let node: unknown = document;
  for (const part of ref.slice(2).split('/')) node = isObject(node) ? node[part] : undefined;
  return isObject(node) ? node : {};
}

function takesIdempotencyKey(document: Json, parameters: unknown): boolean {
  return (Array.isArray(parameters) ? parameters : []).some((p) => {
    const parameter = resolved(document, p);
    return parameter.in === 'header' && String(parameter.name).toLowerCase() === 'idempotency-key';
  });
}

/** The registry of a parsed OpenAPI document; throws OperationRegistryError listing every problem. */
export function operationRegistryOf(document: unknown, source = 'document'): OperationRegistry {
  const problems: string[] = [];
  const operations: RegisteredOperation[] = [];
  const doc = isObject(document) ? document : {};
  const paths = isObject(doc.paths) ? doc.paths : {};
  if (!isObject(doc.paths)) problems.push('it has no paths');
  for (const [path, item] of Object.entries(paths)) {
    if (!isObject(item)) continue;
    for (const method of METHODS) {
      const op = item[method];
      if (!isObject(op)) continue;
      const where = `${method.toUpperCase()} ${path}`;
      const operationId = typeof op.operationId === 'string' ? op.operationId : '';
      const owner = op['x-service'];
      if (!operationId) problems.push(`${where} has no operationId`);
      else if (operations.some((o) => o.operationId === operationId))
        problems.push(`operationId ${operationId} (${where}) is used twice`);
      if (!(OWNER_NAMES as readonly unknown[]).includes(owner)) {
        problems.push(
          `${operationId || where}: x-service must be one of ${OWNER_NAMES.join(', ')}, got ${JSON.stringify(owner ?? null)}`,
        );
        continue;
      }
      operations.push({
        operationId,
        owner: owner as OperationOwner,
        method: method.toUpperCase(),
        path,
        idempotencyKey: takesIdempotencyKey(doc, [
          ...(Array.isArray(item.parameters) ? item.parameters : []),
          ...(Array.isArray(op.parameters) ? op.parameters : []),
        ]),
      });
    }
  }
  if (problems.length > 0) throw new OperationRegistryError(problems, source);
  return new OperationRegistry(operations);
}

const loaded = new Map<string, OperationRegistry>();

/** The registry of the document at `path` (read once per process). */
export function loadOperationRegistry(path: string = OPENAPI_PATH): OperationRegistry {
  let registry = loaded.get(path);
  if (!registry) {
    registry = operationRegistryOf(parse(readFileSync(path, 'utf8')), path);
    loaded.set(path, registry);
  }
  return registry;
}
