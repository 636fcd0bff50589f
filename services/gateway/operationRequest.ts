/**
 * One routed request checked against its operation, with the request parsed once.
 * openapi-backend's handleRequest parses a request four times (routing, matched
 * routing, validation, coerced copy: a deep copy of the query and a path template
 * compiled each time) and routes it a second time; profiled under load that was most
 * of its cost. The gateway has already routed the request, so this runs the steps of
 * handleRequest that apply to this document with the same rules and results: the
 * security requirement (the only scheme is bearerAuth, satisfied by the principal
 * admit() set), then the operation's compiled ajv validators over the same parameter
 * object (path, query, header, cookie, requestBody), then the coerced query and the
 * raw path parameters for the handler; on a validation failure the handler sees the
 * query as sent, not coerced, as with handleRequest. Operations using what this does
 * not parse (cookie parameters, JSON or non-exploded query parameters, a security
 * scheme other than bearerAuth) return undefined and go through handleRequest.
 */
import { params as pathParams } from 'bath-es5';
import type { ErrorObject, ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { OpenAPIBackend, type Operation } from 'openapi-backend';
import { mediaTypeOf } from '../../shared/http/mediaType';

type Query = Record<string, unknown>;

/**
 * The openapi-backend instance the gateway routes and validates with, built from the
 * document at `definitionPath` (not yet initialised: see initOpenApiBackend): strict,
 * coercing query and path values to their schema types, with ajv-formats for the string
 * formats.
 */
export function openApiBackend(definitionPath: string): OpenAPIBackend {
  return new OpenAPIBackend({
    definition: definitionPath,
    // quick: validators are compiled when asked for (initOpenApiBackend compiles the
    // request validators and checks the document itself)
    quick: true,
    strict: true,
    coerceTypes: true,
    validate: true,
    customizeAjv: (ajv) => {
      addFormats(ajv);
      return ajv;
    },
  });
}

/**
 * Initialises a backend from openApiBackend() for serving: the document is checked
 * against the OpenAPI schema (an invalid one fails start-up) and every operation's
 * request validators are compiled before the first request. Its response validators,
 * which the non-quick init also compiles, are left out: the gateway never validates a
 * response (the tests do, with a validator of their own), and compiling them took two
 * thirds of the gateway's start-up (3.1 s against 1.0 s on a 2-core machine).
 */
export async function initOpenApiBackend(api: OpenAPIBackend): Promise<void> {
  await api.loadDocument();
  api.validateDefinition();
  await api.init();
  api.validator.preCompileRequestValidators();
}

export interface CheckedRequest {
  /** Not authorized: the caller is answered 401 before anything is validated. */
  unauthorized: boolean;
  /** The validators' errors, undefined when the request is valid. */
  errors?: ErrorObject[];
  /** Path parameters as sent (decoded, not coerced). */
  params: Record<string, string>;
  /** The query, coerced to the schema's types when valid, as sent otherwise. */
  query: Query;
}

export interface RawRequest {
  path: string;
  /**
   * The query, parsed for this check alone: it is coerced in place, so that a valid
   * request's query is not copied first.
   */
  query: Query;
  /** The query as sent, parsed again: what the handler sees of a request refused. */
  queryAsSent: () => Query;
  /** By lower-case name, as node's http gives them. */
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

type Param = {
  in?: string;
  name?: string;
  schema?: { type?: unknown };
  content?: unknown;
  explode?: boolean;
};

interface Plan {
  validators: ValidateFunction[];
  params: (path: string) => Record<string, string> | null;
  arrayQuery: Set<string>;
  /** The operation's header parameters, lower-case: the validators see only these. */
  headers: string[];
  security: Array<Record<string, unknown>>;
}

function planFor(api: OpenAPIBackend, operation: Operation): Plan | undefined {
  const parameters = (operation.parameters ?? []) as Param[];
  const unsupported = parameters.some(
    (p) =>
      p.in === 'cookie' || (p.in === 'query' && (p.content !== undefined || p.explode === false)),
  );
  const security = (operation.security ?? []) as Array<Record<string, unknown>>;
  if (unsupported || security.some((r) => Object.keys(r).some((k) => k !== 'bearerAuth')))
    return undefined;
  const arrayQuery = new Set(
    parameters
      .filter((p) => p.in === 'query' && p.schema?.type === 'array')
      .map((p) => p.name as string),
  );
  return {
    validators: (api.validator.getRequestValidatorsForOperation(operation.operationId as string) ??
      []) as ValidateFunction[],
    params: pathParams(operation.path) as Plan['params'],
    arrayQuery,
    headers: parameters.filter((p) => p.in === 'header').map((p) => String(p.name).toLowerCase()),
    security,
  };
}

/** handleRequest's reading of a body that is not an object: a JSON text is parsed. */
function requestBodyOf(body: unknown): unknown {
  if (!body || typeof body === 'object') return body;
  try {
    return JSON.parse(String(body));
  } catch {
    return body;
  }
}

/** A body that is not JSON, for an operation whose only body type is JSON. */
function malformedBody(operation: Operation, body: unknown): ErrorObject | undefined {
  if (typeof body === 'object' || body === undefined) return undefined;
  const content = (operation.requestBody as { content?: object } | undefined)?.content ?? {};
  const formats = Object.keys(content);
  if (formats.length !== 1 || formats[0] !== 'application/json') return undefined;
  try {
    JSON.parse(`${String(body)}`);
    return undefined;
  } catch (err) {
    if (!(err instanceof Error)) return undefined;
    return {
      keyword: 'parse',
      instancePath: '',
      schemaPath: '#/requestBody',
      params: [],
      message: err.message,
    };
  }
}

/** Checks `req` against `operation`, or undefined when handleRequest must do it. */
export function operationChecker(api: OpenAPIBackend) {
  const plans = new Map<Operation, Plan | undefined>();
  return (
    operation: Operation,
    req: RawRequest,
    authenticated: boolean,
  ): CheckedRequest | undefined => {
    if (!plans.has(operation)) plans.set(operation, planFor(api, operation));
    const plan = plans.get(operation);
    if (!plan) return undefined;
    const { path } = api.router.normalizeRequest({ method: 'get', path: req.path, headers: {} });
    const params = plan.params(api.router.normalizePath(path)) ?? {};
    const authorized =
      plan.security.length === 0 ||
      plan.security.some((r) => Object.keys(r).every(() => authenticated));
    if (!authorized) return { unauthorized: true, params, query: req.queryAsSent() };

    const query = req.query;
    for (const [name, value] of Object.entries(query))
      if (typeof value === 'string' && plan.arrayQuery.has(name)) query[name] = [value];
    // the header parameters alone: the validators allow any other header, so copying
    // them all would change no answer
    const header: Record<string, unknown> = {};
    for (const name of plan.headers)
      if (req.headers[name] !== undefined) header[name] = req.headers[name];
    const parameters: Record<string, unknown> = {
      path: { ...params },
      query,
      header,
      cookie: {},
    };
    const requestBody = requestBodyOf(req.body);
    const contentType = mediaTypeOf(req.headers['content-type']);
    if (typeof requestBody === 'object' || contentType === 'application/json')
      parameters.requestBody = requestBody;

    const errors: ErrorObject[] = [];
    const parseError = malformedBody(operation, req.body);
    if (parseError) errors.push(parseError);
    let coerced = false;
    for (const validate of plan.validators) {
      validate(parameters);
      if (validate.errors) errors.push(...validate.errors);
      else coerced = true;
    }
    if (errors.length > 0) return { unauthorized: false, errors, params, query: req.queryAsSent() };
    return { unauthorized: false, params, query: coerced ? query : req.queryAsSent() };
  };
}
