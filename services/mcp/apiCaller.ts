/**
 * The HTTP calls behind every tool, resource and prompt: the service's own API,
 * with the caller's bearer key, so authentication, scopes, project allowlists,
 * roles, rate limits and error bodies are exactly those of the HTTP routes.
 * Inside the gateway the base URL is the gateway itself on loopback; from
 * `graphctl mcp` it is the --url given.
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

export interface ApiCallerOptions {
  baseUrl: string;
  /** The bearer key, sent as `Authorization: Bearer ...`; absent sends no credential. */
  token?: string;
  /** Headers added to every call (the gateway forwards the client address and request id). */
  headers?: Record<string, string>;
}

export class ApiCaller {
  private readonly baseUrl: string;
  private readonly headers: Record<string, string>;

  constructor(options: ApiCallerOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.headers = { ...options.headers, Accept: 'application/json' };
    if (options.token !== undefined) this.headers.Authorization = `Bearer ${options.token}`;
  }

  async call(request: ApiRequest): Promise<ApiAnswer> {
    const headers: Record<string, string> = { ...this.headers, ...request.headers };
    let payload: string | undefined;
    if (request.body !== undefined) {
      payload = JSON.stringify(request.body);
      headers['Content-Type'] = 'application/json';
    }
    const response = await fetch(`${this.baseUrl}${request.path}`, {
      method: request.method,
      headers,
      body: payload,
    });
    const text = await response.text();
    let json: unknown;
    if (text.length > 0) {
      try {
        json = JSON.parse(text) as unknown;
      } catch {
        json = undefined;
      }
    }
    return {
      status: response.status,
      text,
      json,
      replayed: response.headers.get('idempotent-replayed') === 'true',
    };
  }

  async getJson(path: string): Promise<ApiAnswer> {
    return this.call({ method: 'GET', path });
  }
}
