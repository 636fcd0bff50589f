/**
 * Abuse: per-branch quotas. A branch holds at most BRANCH_MAX_NODES nodes,
 * BRANCH_MAX_WIRES wires and BRANCH_MAX_BYTES stored bytes (its starting content
 * plus every recorded batch); growing past one is a 422 branch_quota_exceeded on
 * apply, validate, import and merge, and nothing is written. The quotas are set low
 * here (a service of its own) so they are reached in a few requests; a read of the
 * fullest allowed branch is bounded by them.
 */
import { expect } from 'chai';
import { newUser, TestUser, uniqueName } from '../support/harness';
import { addEdge, addNode, port, uuid } from '../support/graphBuilders';
import type { ApiClient } from '../support/client';
import { LimitedService, startLimited } from './limitedService';

const MAX_NODES = 20;
const MAX_WIRES = 6;
const MAX_BYTES = 96 * 1024;

interface Branch {
  id: string;
  version: number;
}

async function project(api: ApiClient): Promise<{ projectId: string; mainId: string }> {
  const res = await api.post('/v1/projects', { name: uniqueName() });
  expect(res.status).to.equal(201);
  return { projectId: res.body.project.id, mainId: res.body.main_branch.id };
}

async function fork(api: ApiClient, projectId: string): Promise<Branch> {
  const res = await api.post(`/v1/projects/${projectId}/branches`, { name: uniqueName('b') });
  expect(res.status, JSON.stringify(res.body)).to.equal(201);
  return { id: res.body.branch.id, version: 0 };
}

async function post(api: ApiClient, b: Branch, deltas: unknown[]) {
  const res = await api.post(`/v1/branches/${b.id}/deltas`, {
    deltas,
    expected_version: b.version,
  });
  if (res.status === 200) b.version = res.body.branch.version;
  return res;
}

const nodes = (n: number, data: Record<string, unknown> = {}) =>
  Array.from({ length: n }, () => addNode({ data: { ...data } }));

function expectQuota(res: { status: number; body: any }, what: string) {
  expect(res.status, JSON.stringify(res.body).slice(0, 300)).to.equal(422);
  const detail = res.body.detail;
  expect(detail.error ?? detail.code).to.equal('branch_quota_exceeded');
  expect(detail.message).to.include(what);
}

describe('abuse: per-branch quotas', function () {
  this.timeout(120_000);
  let limited: LimitedService;
  let user: TestUser;
  let api: ApiClient;

  before(async () => {
    limited = await startLimited({
      BRANCH_MAX_NODES: String(MAX_NODES),
      BRANCH_MAX_WIRES: String(MAX_WIRES),
      BRANCH_MAX_BYTES: String(MAX_BYTES),
    });
  });
  after(async () => limited?.close());
  beforeEach(async () => {
    user = await newUser();
    api = limited.api(user);
  });

  it('nodes: the batch that would pass BRANCH_MAX_NODES is refused whole; deleting frees room', async () => {
    const { projectId } = await project(api);
    const b = await fork(api, projectId);
    expect((await post(api, b, nodes(MAX_NODES - 1))).status).to.equal(200);
    const over = await post(api, b, nodes(2));
    expectQuota(over, `${MAX_NODES} nodes`);
    const dry = await api.post(`/v1/branches/${b.id}/validate`, { deltas: nodes(2) });
    expectQuota(dry, 'nodes');
    const graph = await api.get(`/v1/branches/${b.id}/graph`);
    expect(graph.body.nodes).to.have.length(MAX_NODES - 1);
    expect(graph.body.branch.version).to.equal(1);
    // counters are exact: delete one, and two more fit again
    const victim = graph.body.nodes[0].id;
    expect((await post(api, b, [{ type: 'delete_node', node_id: victim }])).status).to.equal(200);
    expect((await post(api, b, nodes(2))).status).to.equal(200);
    expectQuota(await post(api, b, nodes(1)), 'nodes');
  });

  it('wires: BRANCH_MAX_WIRES, counting wires removed with their ports', async () => {
    const { projectId } = await project(api);
    const b = await fork(api, projectId);
    const outs = Array.from({ length: MAX_WIRES + 1 }, () => port());
    const ins = Array.from({ length: MAX_WIRES + 1 }, () => port());
    const source = uuid();
    await post(api, b, [
      addNode({ id: source, data: { outputs: outs } }),
      addNode({ data: { inputs: ins } }),
    ]);
    const wires = (from: number, to: number) =>
      outs.slice(from, to).map((o, i) => addEdge(o.id, ins[from + i].id));
    expect((await post(api, b, wires(0, MAX_WIRES))).status).to.equal(200);
    expectQuota(await post(api, b, wires(MAX_WIRES, MAX_WIRES + 1)), `${MAX_WIRES} wires`);
    // dropping a port drops its wire and frees its place
    const res = await post(api, b, [
      { type: 'update_node_data', node_id: source, after: { outputs: outs.slice(1) } },
    ]);
    expect(res.status).to.equal(200);
    expect((await post(api, b, wires(MAX_WIRES, MAX_WIRES + 1))).status).to.equal(200);
  });

  it('stored bytes: the recorded batches count until BRANCH_MAX_BYTES, then 422', async () => {
    const { projectId } = await project(api);
    const b = await fork(api, projectId);
    const node = uuid();
    await post(api, b, [addNode({ id: node })]);
    const description = 'd'.repeat(9_000);
    let refused: { status: number; body: any } | undefined;
    for (let i = 0; i < 20 && !refused; i += 1) {
      // rewriting the same node grows nothing but the trail, and the trail is stored
      const res = await post(api, b, [
        { type: 'update_node_data', node_id: node, after: { description: `${i}${description}` } },
      ]);
      if (res.status !== 200) refused = res;
    }
    expect(refused, 'the byte quota was never reached').to.not.equal(undefined);
    expectQuota(refused as { status: number; body: any }, `${MAX_BYTES} stored bytes`);
    const trail = await api.get(`/v1/branches/${b.id}/changes?limit=200`);
    const recorded = JSON.stringify(trail.body.changes).length;
    expect(recorded).to.be.below(MAX_BYTES + 8 * 1024);
  });

  it('a fork starts with main’s usage; a merge that would pass a quota on main is refused', async () => {
    const { projectId, mainId } = await project(api);
    const first = await fork(api, projectId);
    const second = await fork(api, projectId);
    await post(api, first, nodes(MAX_NODES - 5));
    expect(
      (await api.post(`/v1/branches/${first.id}/merge`, { expected_version: 1 })).status,
    ).to.equal(200);
    // the second branch is within its own quota, but main would hold too many nodes
    expect((await post(api, second, nodes(10))).status).to.equal(200);
    const preview = await api.get(`/v1/branches/${second.id}/merge-preview`);
    expect(preview.status).to.equal(200);
    expect(preview.body.can_merge).to.equal(false);
    expectQuota(
      await api.post(`/v1/branches/${second.id}/merge`, { expected_version: 1 }),
      'nodes',
    );
    const main = await api.get(`/v1/branches/${mainId}/graph`);
    expect(main.body.nodes).to.have.length(MAX_NODES - 5);
    // a new fork of main carries its count
    await api.delete(`/v1/branches/${second.id}?expected_version=1`);
    const third = await fork(api, projectId);
    expectQuota(await post(api, third, nodes(6)), 'nodes');
    expect((await post(api, third, nodes(5))).status).to.equal(200);
  });

  it('import: a file past a quota is refused and creates nothing', async () => {
    const file = {
      schema_version: 6,
      project_name: uniqueName('import'),
      nodes: Array.from({ length: MAX_NODES + 1 }, () => ({
        id: uuid(),
        kind: 'behavior',
        parent_id: null,
        data: {},
      })),
      edges: [],
    };
    expectQuota(await api.post('/v1/projects/import', file), 'nodes');
    const list = await api.get('/v1/projects?include_archived=true');
    expect(list.body.projects).to.deep.equal([]);
    file.nodes.pop();
    expect((await api.post('/v1/projects/import', file)).status).to.equal(201);
  });

  it('the fullest allowed branch reads back in bounded size', async () => {
    const { projectId } = await project(api);
    const b = await fork(api, projectId);
    // fill to the node quota with large descriptions until one more is refused
    const big = { description: 'x'.repeat(4_000), name: '' };
    for (let i = 0; i < MAX_NODES; i += 1) {
      const res = await post(api, b, nodes(1, big));
      if (res.status !== 200) {
        expectQuota(res, 'the branch would hold');
        break;
      }
    }
    const graph = await api.get(`/v1/branches/${b.id}/graph`);
    expect(graph.status).to.equal(200);
    expect(JSON.stringify(graph.body).length).to.be.below(MAX_BYTES * 1.5);
    const trail = await api.get(`/v1/branches/${b.id}/changes?limit=200`);
    expect(trail.status).to.equal(200);
    expect(JSON.stringify(trail.body).length).to.be.below(MAX_BYTES * 1.5);
  });
});
