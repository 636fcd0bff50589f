/**
 * MCP tool definitions generated from the OpenAPI document at start-up, one per
 * operation named in TOOL_OPERATIONS: the operationId in snake_case as the name,
 * the summary and description as the description, the path, query and header
 * parameters and the JSON request body merged into one object input schema, the
 * 2xx JSON response as the output schema, and annotations from the HTTP method
 * (overridden by the catalog where the method does not tell the whole story).
 */
import {
  argumentNameOfHeader,
  NOT_TOOLS,
  TOOL_OPERATIONS,
  ToolSemantics,
  toolNameOf,
} from './toolCatalog';
import { bundleSchemas, JsonSchema, OpenApiDocument, resolveRef } from './openApiSchemas';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const IDEMPOTENCY_HEADER = 'idempotency-key';

/** Where each argument of a tool goes in the HTTP request. */
export interface ToolRoute {
  operationId: string;
  method: string;
  /** Path template of the document, e.g. /v1/branches/{branch_id}/deltas. */
  path: string;
  pathParams: string[];
  queryParams: { name: string; array: boolean }[];
  headerParams: { header: string; argument: string }[];
  /** flat: the body's properties are top-level arguments; nested: one `body` argument. */
  body: 'none' | 'flat' | 'nested';
  /** The argument that carries an Idempotency-Key header, when the operation takes one. */
  idempotencyArgument?: string;
}

export interface ToolAnnotations {
  title: string;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonSchema & { type: 'object' };
  outputSchema?: JsonSchema & { type: 'object' };
  annotations: ToolAnnotations;
  route: ToolRoute;
}

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: JsonSchema;
}

interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  parameters?: unknown[];
  requestBody?: unknown;
  responses?: Record<string, unknown>;
}

const IDEMPOTENCY_NOTE =
  'Over MCP: when idempotency_key is omitted, the server derives one from the arguments ' +
  '(branch and body, expected_version included), so repeating exactly the same call after a ' +
  'lost answer returns the first answer instead of applying the batch twice. Pass your own ' +
  'idempotency_key only to apply an identical batch again on purpose.';

/** Hints implied by the HTTP method, before the catalog's overrides. */
export function methodSemantics(method: string): Required<ToolSemantics> {
  switch (method.toUpperCase()) {
    case 'GET':
    case 'HEAD':
      return { readOnly: true, destructive: false, idempotent: true };
    case 'DELETE':
      return { readOnly: false, destructive: true, idempotent: true };
    case 'PUT':
    case 'PATCH':
      return { readOnly: false, destructive: false, idempotent: true };
    default:
      return { readOnly: false, destructive: false, idempotent: false };
  }
}

function jsonSchemaOf(doc: OpenApiDocument, container: unknown): JsonSchema | undefined {
  const content = (resolveRef(doc, container) as { content?: Record<string, { schema?: unknown }> })
    ?.content;
  const schema = content?.['application/json']?.schema;
  return schema === undefined ? undefined : (schema as JsonSchema);
}

function successResponse(doc: OpenApiDocument, operation: Operation): JsonSchema | undefined {
  const code = Object.keys(operation.responses ?? {}).find((c) => /^2\d\d$/.test(c));
  return code === undefined ? undefined : jsonSchemaOf(doc, operation.responses?.[code]);
}

function buildTool(
  doc: OpenApiDocument,
  method: string,
  path: string,
  operation: Operation,
  semantics: ToolSemantics,
): ToolDefinition {
  const operationId = operation.operationId as string;
  const parameters = (operation.parameters ?? []).map((p) => resolveRef(doc, p) as Parameter);
  const route: ToolRoute = {
    operationId,
    method: method.toUpperCase(),
    path,
    pathParams: [],
    queryParams: [],
    headerParams: [],
    body: 'none',
  };
  const names: string[] = [];
  const schemas: unknown[] = [];
  const required: string[] = [];
  const add = (name: string, schema: unknown, isRequired: boolean) => {
    if (names.includes(name)) throw new Error(`${operationId}: two arguments named ${name}`);
    names.push(name);
    schemas.push(schema);
    if (isRequired) required.push(name);
  };
  for (const p of parameters) {
    const schema = {
      ...(p.schema ?? {}),
      ...(p.description ? { description: p.description } : {}),
    };
    if (p.in === 'path') {
      route.pathParams.push(p.name);
      add(p.name, schema, true);
    } else if (p.in === 'query') {
      route.queryParams.push({ name: p.name, array: p.schema?.type === 'array' });
      add(p.name, schema, p.required === true);
    } else if (p.in === 'header') {
      const argument = argumentNameOfHeader(p.name);
      route.headerParams.push({ header: p.name, argument });
      if (p.name.toLowerCase() === IDEMPOTENCY_HEADER) route.idempotencyArgument = argument;
      add(argument, schema, p.required === true);
    }
  }
  const bodyRequired = (resolveRef(doc, operation.requestBody) as { required?: boolean })?.required;
  const bodySchema = operation.requestBody ? jsonSchemaOf(doc, operation.requestBody) : undefined;
  let additionalProperties: unknown = false;
  if (bodySchema) {
    const resolved = resolveRef(doc, bodySchema);
    const properties = resolved.properties as Record<string, unknown> | undefined;
    const plainObject =
      resolved.type === 'object' &&
      properties !== undefined &&
      !['allOf', 'anyOf', 'oneOf'].some((k) => k in resolved) &&
      !Object.keys(properties).some((name) => names.includes(name));
    if (plainObject) {
      route.body = 'flat';
      const bodyRequiredNames = bodyRequired ? ((resolved.required as string[]) ?? []) : [];
      for (const [name, schema] of Object.entries(properties))
        add(name, schema, bodyRequiredNames.includes(name));
      additionalProperties = resolved.additionalProperties;
    } else {
      route.body = 'nested';
      add('body', bodySchema, bodyRequired === true);
    }
  }
  const bundled = bundleSchemas(doc, schemas);
  const inputSchema: ToolDefinition['inputSchema'] = {
    type: 'object',
    properties: Object.fromEntries(names.map((name, i) => [name, bundled.schemas[i]])),
    ...(required.length > 0 ? { required } : {}),
    ...(additionalProperties !== undefined ? { additionalProperties } : {}),
    ...(Object.keys(bundled.defs).length > 0 ? { $defs: bundled.defs } : {}),
  };

  let outputSchema: ToolDefinition['outputSchema'];
  const success = successResponse(doc, operation);
  if (success && resolveRef(doc, success).type === 'object') {
    const out = bundleSchemas(doc, [resolveRef(doc, success)]);
    outputSchema = {
      ...out.schemas[0],
      type: 'object',
      ...(Object.keys(out.defs).length > 0 ? { $defs: out.defs } : {}),
    };
  }

  const hints = { ...methodSemantics(method), ...semantics };
  const title = operation.summary ?? operationId;
  const description = [
    title,
    operation.description ?? '',
    `HTTP: ${route.method} ${path} (operationId ${operationId}).`,
    route.idempotencyArgument ? IDEMPOTENCY_NOTE : '',
  ]
    .filter((part) => part !== '')
    .join('\n\n');
  return {
    name: toolNameOf(operationId),
    title,
    description,
    inputSchema,
    ...(outputSchema ? { outputSchema } : {}),
    annotations: {
      title,
      readOnlyHint: hints.readOnly,
      destructiveHint: hints.destructive,
      idempotentHint: hints.idempotent,
      openWorldHint: false,
    },
    route,
  };
}

function operationsOf(doc: OpenApiDocument): { method: string; path: string; op: Operation }[] {
  const found: { method: string; path: string; op: Operation }[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, value] of Object.entries(item)) {
      const op = value as Operation;
      if (METHODS.includes(method) && op?.operationId) found.push({ method, path, op });
    }
  }
  return found;
}

/**
 * Where the document and the catalog disagree: an operation that is neither a
 * tool nor deliberately left out, or a catalog entry that names no operation.
 * The gateway logs these at start-up and the catalog test fails on them.
 */
export function catalogProblems(doc: OpenApiDocument): string[] {
  const ids = new Set(operationsOf(doc).map(({ op }) => op.operationId as string));
  const problems: string[] = [];
  for (const id of ids)
    if (!(id in TOOL_OPERATIONS) && !(id in NOT_TOOLS))
      problems.push(`operation ${id} is neither a tool nor left out`);
  for (const id of [...Object.keys(TOOL_OPERATIONS), ...Object.keys(NOT_TOOLS)])
    if (!ids.has(id)) problems.push(`the catalog names ${id}, which the document does not have`);
  return problems;
}

/** The tools of the document (the operations TOOL_OPERATIONS names), in the document's order. */
export function toolDefinitions(doc: OpenApiDocument): ToolDefinition[] {
  return operationsOf(doc)
    .filter(({ op }) => (op.operationId as string) in TOOL_OPERATIONS)
    .map(({ method, path, op }) =>
      buildTool(doc, method, path, op, TOOL_OPERATIONS[op.operationId as string]),
    );
}
