/**
 * The API calls behind every tool, resource and prompt: the service's own API, with
 * the caller's bearer key, so authentication, scopes, project allowlists, roles,
 * rate limits and error bodies are exactly those of the HTTP routes. How a call
 * reaches the API is its transport (apiTransports.ts): inside the gateway, the
 * gateway's own request pipeline in process; from `graphctl mcp`, HTTP to the --url given.
 */

export interface ApiAnswer {
  status: number;
  /** The body exactly as received (the error body reaches the agent unchanged). */
  text: string;
  /** The body parsed as JSON, undefined when empty or not JSON. */
  json: unknown;
  /** The answer replays an earlier one (Idempotent-Replayed: true). */
  replayed: boolean;
}

export interface ApiRequest {
  method: string;
  /** Path with query string, e.g. /v1/projects?limit=5. */
  path: string;
  headers?: Record<string, string>;
  body?: unknown;
}

/** One request as it goes to the API: headers complete, the body encoded. */
export interface SentRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  /** JSON text (Content-Type is set) or absent. */
  body?: string;
  /** Aborted when the agent's call is cancelled or its connection closes. */
  signal?: AbortSignal;
}

/** The answer as a transport reads it. */
export interface ReceivedAnswer {
  status: number;
  text: string;
  /** A response header by its lower-case name. */
  header(name: string): string | undefined;
}

export type ApiTransport = (request: SentRequest) => Promise<ReceivedAnswer>;

export interface ApiCallerOptions {
  transport: ApiTransport;
  /** The bearer key, sent as `Authorization: Bearer ...`; absent sends no credential. */
  token?: string;
  /** Headers added to every call (the gateway passes on the caller's credential and request id). */
  headers?: Record<string, string>;
}

function parsedJson(text: string): unknown {
  if (text.length === 0) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // not JSON: the answer is kept as text alone
    return undefined;
  }
}

export class ApiCaller {
  private readonly transport: ApiTransport;
  private readonly headers: Record<string, string>;

  constructor(options: ApiCallerOptions) {
    this.transport = options.transport;
    this.headers = { ...options.headers, Accept: 'application/json' };
    if (options.token !== undefined) this.headers.Authorization = `Bearer ${options.token}`;
  }

  async call(request: ApiRequest, signal?: AbortSignal): Promise<ApiAnswer> {
    const headers: Record<string, string> = { ...this.headers, ...request.headers };
    let body: string | undefined;
    if (request.body !== undefined) {
      body = JSON.stringify(request.body);
      headers['Content-Type'] = 'application/json';
    }
    const answer = await this.transport({
      method: request.method,
      path: request.path,
      headers,
      body,
      signal,
    });
    return {
      status: answer.status,
      text: answer.text,
      json: parsedJson(answer.text),
      replayed: answer.header('idempotent-replayed') === 'true',
    };
  }

  async getJson(path: string): Promise<ApiAnswer> {
    return this.call({ method: 'GET', path });
  }
}
