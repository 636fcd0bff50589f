/**
 * A thin HTTP client for the benchmarks (no contract checks: only timings matter here).
 * It speaks node:http over a keep-alive agent, as a load generator does: in this same
 * process, the global fetch cost about 0.2 ms more per call on each side of the request
 * (measured on a subtree read), time that is the client's, not the service's. `fetch`
 * keeps the global fetch, for a comparison with a client that uses it (the MCP SDK's).
 */
import { Agent, request } from 'node:http';
import { uniqueLabel } from './labels';

export type BenchTransport = 'http' | 'fetch';

export class BenchClient {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 32 });

  constructor(
    private readonly baseUrl: string,
    private readonly token: string,
    private readonly transport: BenchTransport = 'http',
  ) {}

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
      this.transport === 'fetch'
        ? await this.viaFetch(method, path, sent, text)
        : await this.viaHttp(method, path, sent, text);
    if (status >= 300)
      throw new Error(`${method} ${path} -> ${status}: ${JSON.stringify(json).slice(0, 400)}`);
    return json;
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
