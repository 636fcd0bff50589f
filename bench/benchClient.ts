/** A thin HTTP client for the benchmarks (no contract checks: only timings matter here). */
import { uniqueLabel } from './labels';

export class BenchClient {
  constructor(
    private readonly baseUrl: string,
    private readonly token: string,
  ) {}

  async call(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<any> {
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${this.token}`,
        'Content-Type': 'application/json',
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await response.json()) as any;
    if (response.status >= 300)
      throw new Error(
        `${method} ${path} -> ${response.status}: ${JSON.stringify(json).slice(0, 400)}`,
      );
    return json;
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
