/**
 * Builders for merge tests: a project, branches forked from its main,
 * batches applied through HTTP, merges, previews and main reads. Every response
 * goes through the contract-checking client.
 */
import { expect } from 'chai';
import type { ApiResponse } from './client';
import type { TestUser } from './harness';
import { uniqueName } from './harness';

export interface BranchHandle {
  id: string;
  version: number;
  /** Applies deltas at the current version and expects 200. */
  apply(deltas: unknown[], extra?: Record<string, unknown>): Promise<any>;
  /** Merges at the current version and returns the raw response. */
  merge(expectedVersion?: number): Promise<ApiResponse>;
  /** Merges and expects 200. */
  mergeOk(): Promise<any>;
  preview(): Promise<any>;
  diff(): Promise<any>;
  graph(): Promise<any>;
}

export interface MergeProject {
  user: TestUser;
  projectId: string;
  mainId: string;
  fork(name?: string): Promise<BranchHandle>;
  /** Main's graph (GET /v1/graph/{project_id}). */
  main(): Promise<any>;
  /** Forks, applies `deltas`, merges: main then holds them. */
  seed(deltas: unknown[]): Promise<void>;
}

export function branchHandle(user: TestUser, id: string, version = 0): BranchHandle {
  const handle: BranchHandle = {
    id,
    version,
    async apply(deltas, extra = {}) {
      const res = await user.api.post(`/v1/branches/${id}/deltas`, {
        deltas,
        expected_version: handle.version,
        ...extra,
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      handle.version = res.body.branch.version;
      return res.body;
    },
    merge(expectedVersion) {
      return user.api.post(`/v1/branches/${id}/merge`, {
        expected_version: expectedVersion ?? handle.version,
      });
    },
    async mergeOk() {
      const res = await handle.merge();
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      return res.body;
    },
    async preview() {
      const res = await user.api.get(`/v1/branches/${id}/merge-preview`);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      return res.body;
    },
    async diff() {
      const res = await user.api.get(`/v1/branches/${id}/diff`);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      return res.body;
    },
    async graph() {
      const res = await user.api.get(`/v1/branches/${id}/graph`);
      expect(res.status).to.equal(200);
      return res.body;
    },
  };
  return handle;
}

export async function mergeProject(user: TestUser): Promise<MergeProject> {
  const created = await user.api.post('/v1/projects', { name: uniqueName() });
  expect(created.status).to.equal(201);
  const projectId: string = created.body.project.id;
  const project: MergeProject = {
    user,
    projectId,
    mainId: created.body.main_branch.id,
    async fork(name = uniqueName('branch')) {
      const res = await user.api.post(`/v1/projects/${projectId}/branches`, { name });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      return branchHandle(user, res.body.branch.id);
    },
    async main() {
      const res = await user.api.get(`/v1/graph/${projectId}`);
      expect(res.status).to.equal(200);
      return res.body;
    },
    async seed(deltas) {
      const branch = await project.fork();
      await branch.apply(deltas);
      await branch.mergeOk();
    },
  };
  return project;
}

/** A graph read without ids of branches: what must be equal across branches and projects. */
export function content(graph: any): { nodes: any[]; edges: any[] } {
  const byId = (a: any, b: any) => (a.id < b.id ? -1 : 1);
  return { nodes: [...graph.nodes].sort(byId), edges: [...graph.edges].sort(byId) };
}

/** The conflicts of a 409 merge_conflict, by reason. */
export function conflictsOf(res: ApiResponse): any[] {
  expect(res.status, JSON.stringify(res.body)).to.equal(409);
  expect(res.body.detail.code).to.equal('merge_conflict');
  return res.body.detail.conflicts;
}
