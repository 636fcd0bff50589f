/** Builders for delta payloads in tests: fresh uuids, minimal valid shapes. */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { TestUser } from './harness';
import { uniqueName } from './harness';

export const uuid = (): string => randomUUID();

export interface PortSpec {
  id: string;
  name: string;
  type: string;
}

export function port(name = `p${uuid().slice(0, 6)}`, type = 'int'): PortSpec {
  return { id: uuid(), name, type };
}

export function addNode(node: Record<string, unknown>) {
  return { type: 'add_node', node: { id: uuid(), kind: 'behavior', ...node } };
}

export function addEdge(source: string | null, target: string | null, id = uuid()) {
  return { type: 'add_edge', edge: { id, source_handle: source, target_handle: target } };
}

export interface Workspace {
  user: TestUser;
  projectId: string;
  mainId: string;
  branchId: string;
  version: number;
  /** Applies deltas at the current version and expects success. */
  apply(deltas: unknown[], extra?: Record<string, unknown>): Promise<any>;
  /** Posts deltas and returns the raw response (no expectation). */
  post(
    deltas: unknown[],
    extra?: Record<string, unknown>,
    headers?: Record<string, string>,
  ): Promise<any>;
  graph(): Promise<any>;
}

export async function workspace(user: TestUser): Promise<Workspace> {
  const created = await user.api.post('/v1/projects', { name: uniqueName() });
  expect(created.status).to.equal(201);
  const projectId = created.body.project.id;
  const fork = await user.api.post(`/v1/projects/${projectId}/branches`, { name: 'work' });
  expect(fork.status).to.equal(201);
  const ws: Workspace = {
    user,
    projectId,
    mainId: created.body.main_branch.id,
    branchId: fork.body.branch.id,
    version: 0,
    async post(deltas, extra = {}, headers = {}) {
      return user.api.post(
        `/v1/branches/${ws.branchId}/deltas`,
        { deltas, expected_version: ws.version, ...extra },
        { headers },
      );
    },
    async apply(deltas, extra = {}) {
      const res = await ws.post(deltas, extra);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      ws.version = res.body.branch.version;
      return res.body;
    },
    async graph() {
      const res = await user.api.get(`/v1/branches/${ws.branchId}/graph`);
      expect(res.status).to.equal(200);
      return res.body;
    },
  };
  return ws;
}
