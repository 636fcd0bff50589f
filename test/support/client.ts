/**
 * HTTP client for integration tests: real HTTP against the running service, and
 * every response checked against the OpenAPI document (a mismatch fails the test).
 */
import { expect } from 'chai';
import type { Contract } from './contract';

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface RequestOptions {
  headers?: Record<string, string>;
  /** Raw body text (sent as-is with content-type application/json). */
  raw?: string;
}

export class ApiClient {
  constructor(
    private readonly baseUrl: string,
    private readonly contract: Contract,
    private readonly token?: string,
  ) {}

  withToken(token: string | undefined): ApiClient {
    return new ApiClient(this.baseUrl, this.contract, token);
  }

  get<T = any>(path: string, options?: RequestOptions) {
    return this.request<T>('GET', path, undefined, options);
  }
  post<T = any>(path: string, body?: unknown, options?: RequestOptions) {
    return this.request<T>('POST', path, body, options);
  }
  put<T = any>(path: string, body?: unknown, options?: RequestOptions) {
    return this.request<T>('PUT', path, body, options);
  }
  patch<T = any>(path: string, body?: unknown, options?: RequestOptions) {
    return this.request<T>('PATCH', path, body, options);
  }
  delete<T = any>(path: string, options?: RequestOptions) {
    return this.request<T>('DELETE', path, undefined, options);
  }

  async request<T>(
    method: string,
    path: string,
    body?: unknown,
    options: RequestOptions = {},
  ): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (
      this.token !== undefined &&
      !('authorization' in headers) &&
      !('Authorization' in headers)
    ) {
      headers.Authorization = `Bearer ${this.token}`;
    }
    let payload: string | undefined;
    if (options.raw !== undefined) payload = options.raw;
    else if (body !== undefined) payload = JSON.stringify(body);
    if (
      payload !== undefined &&
      !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')
    ) {
      headers['Content-Type'] = 'application/json';
    }
    const response = await fetch(`${this.baseUrl}${path}`, { method, headers, body: payload });
    const text = await response.text();
    let parsed: unknown = undefined;
    if (text.length > 0) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = text;
      }
    }
    const problems = this.contract.check(method, path, response.status, response.headers, parsed);
    expect(
      problems,
      `${method} ${path} -> ${response.status}: response violates the OpenAPI document`,
    ).to.deep.equal([]);
    return { status: response.status, body: parsed as T, headers: response.headers };
  }
}
