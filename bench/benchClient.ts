/**
 * A thin HTTP client for the benchmarks (no contract checks: only timings matter here).
 * By default it writes each request whole over a kept-alive connection and frames the
 * answer itself (rawHttpClient.ts), as a load generator does: the benchmarks run in the
 * service's own process, so whatever the client spends lands in the API's figures, and
 * that time is the client's, not the service's. `http` speaks node:http over a keep-alive
 * agent (about 0.4 ms more per request, see rawHttpClient.ts); `fetch` uses the global
 * fetch (about 0.2 ms more again on each side of the request), for a comparison with a
 * client that uses it (the MCP SDK's).
 */
import { Agent, request } from 'node:http';
import { uniqueLabel } from './labels';
import { RawHttpClient } from './rawHttpClient';

export type BenchTransport = 'raw' | 'http' | 'fetch';

export class BenchClient {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 32 });
  private readonly raw: RawHttpClient;

  constructor(
    private readonly baseUrl: string,
    private readonly token: string,
    private readonly transport: BenchTransport = 'raw',
  ) {
    this.raw = new RawHttpClient(baseUrl);
  }

  async call(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<any> {
    const sent = {
      Authorization: `Bearer ${this.token}`,
      'Content-Type': 'application/json',
      ...headers,
    };
    const text = body === undefined ? undefined : JSON.stringify(body);
    const { status, json } =
      this.transport === 'raw'
        ? await this.viaRaw(method, path, sent, text)
        : this.transport === 'fetch'
          ? await this.viaFetch(method, path, sent, text)
          : await this.viaHttp(method, path, sent, text);
    if (status >= 300)
      throw new Error(`${method} ${path} -> ${status}: ${JSON.stringify(json).slice(0, 400)}`);
    return json;
  }

  private async viaRaw(
    method: string,
    path: string,
    headers: Record<string, string>,
    body: string | undefined,
  ): Promise<{ status: number; json: any }> {
    const { status, text } = await this.raw.request(method, path, headers, body);
    return { status, json: text === '' ? null : JSON.parse(text) };
  }

  private async viaFetch(
    method: string,
    path: string,
    headers: Record<string, string>,
    body: string | undefined,
  ): Promise<{ status: number; json: any }> {
    const response = await fetch(`${this.baseUrl}${path}`, { method, headers, body });
    return { status: response.status, json: await response.json() };
  }

  private viaHttp(
    method: string,
    path: string,
    headers: Record<string, string>,
    body: string | undefined,
  ): Promise<{ status: number; json: any }> {
    const url = new URL(path, this.baseUrl);
    return new Promise((resolve, reject) => {
      const req = request(url, { method, headers, agent: this.agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          try {
            const text = Buffer.concat(chunks).toString('utf8');
            resolve({ status: res.statusCode ?? 0, json: text === '' ? null : JSON.parse(text) });
          } catch (error) {
            reject(error);
          }
        });
      });
      req.on('error', reject);
      req.end(body);
    });
  }

  async createProject(): Promise<{ projectId: string; mainId: string }> {
    const body = await this.call('POST', '/v1/projects', { name: uniqueLabel('bench') });
    return { projectId: body.project.id, mainId: body.main_branch.id };
  }

  async fork(projectId: string): Promise<string> {
    const body = await this.call('POST', `/v1/projects/${projectId}/branches`, {
      name: uniqueLabel('fork'),
    });
    return body.branch.id;
  }

  async applyDeltas(branchId: string, deltas: unknown[], expectedVersion: number): Promise<number> {
    const body = await this.call('POST', `/v1/branches/${branchId}/deltas`, {
      deltas,
      expected_version: expectedVersion,
    });
    return body.branch.version;
  }

  /** validateDeltas of `deltas` over the branch (none: the branch as it is). */
  validate(branchId: string, deltas: unknown[] = []): Promise<any> {
    return this.call('POST', `/v1/branches/${branchId}/validate`, { deltas });
  }

  readGraph(branchId: string): Promise<any> {
    return this.call('GET', `/v1/branches/${branchId}/graph`);
  }

  merge(branchId: string, expectedVersion: number): Promise<any> {
    return this.call('POST', `/v1/branches/${branchId}/merge`, {
      expected_version: expectedVersion,
    });
  }

  /** revertBranch of the batch that made `version`; returns the branch's new version. */
  async revert(branchId: string, version: number, expectedVersion: number): Promise<number> {
    const body = await this.call('POST', `/v1/branches/${branchId}/revert`, {
      version,
      expected_version: expectedVersion,
    });
    return body.branch.version;
  }
}
