/**
 * One tool call = one HTTP call of the operation it was generated from. The
 * arguments are split back into path, query, header and body as the route says;
 * the answer becomes the tool result: a 2xx body is the structured content (and
 * its JSON text), anything else is a tool error whose only content is the HTTP
 * error body unchanged, so `detail` (and a delta error's recovery_hint) reaches
 * the agent exactly as an HTTP client sees it.
 */
import { createHash } from 'node:crypto';
import { RequestValidationError, ServiceUnavailableError } from '../../shared/errors/domainErrors';
import { errorBody } from '../../shared/http/errorResponse';
import type { ApiCaller, ApiRequest } from './apiCaller';
import type { ToolDefinition } from './toolDefinitions';

export interface ToolResult {
  [key: string]: unknown;
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
}

/** The HTTP status behind a tool result, in its _meta. */
export const HTTP_STATUS_META = 'gds/http_status';
/** In a result's _meta when the API replayed an earlier answer (Idempotent-Replayed). */
export const REPLAYED_META = 'gds/idempotent_replayed';

type Args = Record<string, unknown>;

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value as Args).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical((value as Args)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * The Idempotency-Key of a call that names none: a digest of the operation, the
 * path (the branch) and the body (expected_version included). A non-empty batch
 * can only apply at the version it expects, and applying it moves the version
 * on, so the same arguments can never legitimately apply twice: a repeat is
 * either the agent's retry after a lost answer (replayed) or a mistake.
 * Only such a body gets one (see derivesKey).
 */
export function derivedIdempotencyKey(operationId: string, path: string, body: unknown): string {
  const digest = createHash('sha256')
    .update(canonical({ operationId, path, body: body ?? null }))
    .digest('hex');
  return `mcp-${digest}`;
}

/**
 * Whether a call's body is one whose repeat can only be a retry: a batch with deltas,
 * or a rebase that is not a dry run (rebaseBranch moves the version it expects).
 * A batch without deltas (positions only) leaves the version where it is, so the
 * same arguments may rightly be sent again (a node moved away and back); replaying
 * the first answer would silently leave the node where it was. Sent again, such a
 * batch just writes the same positions again, which is harmless; so does a dry run
 * answer again what the rebase would do now.
 */
function derivesKey(operationId: string, body: unknown): boolean {
  const fields = body as { deltas?: unknown; dry_run?: unknown } | null | undefined;
  if (operationId === 'rebaseBranch') return fields?.dry_run !== true;
  return Array.isArray(fields?.deltas) && fields.deltas.length > 0;
}

function fail(status: number, body: unknown, text = JSON.stringify(body)): ToolResult {
  return {
    content: [{ type: 'text', text }],
    isError: true,
    _meta: { [HTTP_STATUS_META]: status },
  };
}

function present(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The HTTP request of a call, or the 422 (array form) a missing path argument would get. */
export function requestOf(
  tool: ToolDefinition,
  args: Args,
): { request: ApiRequest } | { invalid: ToolResult } {
  const { route } = tool;
  const missing = route.pathParams.filter((name) => args[name] === undefined || args[name] === '');
  if (missing.length > 0) {
    const { status, body } = errorBody(
      new RequestValidationError(
        missing.map((name) => ({ loc: ['path', name], msg: 'Field required', type: 'missing' })),
      ),
    );
    return { invalid: fail(status, body) };
  }
  let path = route.path;
  for (const name of route.pathParams)
    path = path.replace(`{${name}}`, encodeURIComponent(present(args[name])));
  const query = new URLSearchParams();
  for (const { name, array } of route.queryParams) {
    const value = args[name];
    if (value === undefined || value === null) continue;
    if (array && Array.isArray(value)) for (const item of value) query.append(name, present(item));
    else query.append(name, present(value));
  }
  const search = query.toString();
  const headers: Record<string, string> = {};
  for (const { header, argument } of route.headerParams) {
    if (args[argument] !== undefined) headers[header] = present(args[argument]);
  }
  let body: unknown;
  if (route.body === 'nested') body = args.body;
  else if (route.body === 'flat') {
    const taken = new Set([
      ...route.pathParams,
      ...route.queryParams.map((q) => q.name),
      ...route.headerParams.map((h) => h.argument),
    ]);
    body = Object.fromEntries(Object.entries(args).filter(([name]) => !taken.has(name)));
  }
  if (
    route.idempotencyArgument &&
    args[route.idempotencyArgument] === undefined &&
    derivesKey(route.operationId, body)
  ) {
    const header = route.headerParams.find((h) => h.argument === route.idempotencyArgument);
    if (header) headers[header.header] = derivedIdempotencyKey(route.operationId, path, body);
  }
  return {
    request: {
      method: route.method,
      path: search ? `${path}?${search}` : path,
      headers,
      ...(body !== undefined ? { body } : {}),
    },
  };
}

export async function callTool(
  tool: ToolDefinition,
  args: Args,
  api: ApiCaller,
  /** The agent's cancellation of the call (or its hang-up): the API request is abandoned. */
  signal?: AbortSignal,
): Promise<ToolResult> {
  const built = requestOf(tool, args);
  if ('invalid' in built) return built.invalid;
  let answer;
  try {
    answer = await api.call(built.request, signal);
  } catch (error) {
    const { status, body } = errorBody(
      new ServiceUnavailableError(`the API did not answer: ${(error as Error).message}`),
    );
    return fail(status, body);
  }
  if (answer.status >= 400) {
    const failed = fail(answer.status, answer.json, answer.text);
    if (answer.replayed) failed._meta = { ...failed._meta, [REPLAYED_META]: true };
    return failed;
  }
  const result: ToolResult = {
    content: [{ type: 'text', text: answer.text }],
    _meta: {
      [HTTP_STATUS_META]: answer.status,
      ...(answer.replayed ? { [REPLAYED_META]: true } : {}),
    },
  };
  const json = answer.json;
  if (tool.outputSchema && json !== null && typeof json === 'object' && !Array.isArray(json))
    result.structuredContent = json as Record<string, unknown>;
  return result;
}
