/**
 * Abuse: containment depth. Nodes nest at most MAX_NESTING_DEPTH deep (422
 * depth_limit_exceeded) whether added, reparented, moved through update_node_data
 * or imported from a graph file; and orphan_node is decided in one pass over the
 * containment tree, so a chain as deep as allowed costs no walk per node.
 */
import { expect } from 'chai';
import { newUser, TestUser, uniqueName, currentHarness } from '../support/harness';
import { uuid, workspace } from '../support/graphBuilders';
import type { ApiClient } from '../support/client';
import { LimitedService, startLimited } from './limitedService';

const MAX_DEPTH = 8;

const boundary = (id: string, parent: string | null) => ({
  type: 'add_node',
  node: { id, kind: 'boundary', parent_id: parent, data: {} },
});

/** add_node deltas for a chain of `n` boundaries under `parent`. */
function chain(n: number, parent: string | null = null): { ids: string[]; deltas: unknown[] } {
  const ids = Array.from({ length: n }, () => uuid());
  return { ids, deltas: ids.map((id, i) => boundary(id, i === 0 ? parent : ids[i - 1])) };
}

describe('abuse: nesting depth', function () {
  this.timeout(120_000);
  let limited: LimitedService;
  let user: TestUser;
  let api: ApiClient;

  before(async () => {
    limited = await startLimited({ MAX_NESTING_DEPTH: String(MAX_DEPTH) });
  });
  after(async () => limited?.close());
  beforeEach(async () => {
    user = await newUser();
    api = limited.api(user);
  });

  async function branch(): Promise<{ id: string; version: number }> {
    const created = await api.post('/v1/projects', { name: uniqueName() });
    const res = await api.post(`/v1/projects/${created.body.project.id}/branches`, {
      name: 'deep',
    });
    expect(res.status).to.equal(201);
    return { id: res.body.branch.id, version: 0 };
  }

  async function post(b: { id: string; version: number }, deltas: unknown[]) {
    const res = await api.post(`/v1/branches/${b.id}/deltas`, {
      deltas,
      expected_version: b.version,
    });
    if (res.status === 200) b.version = res.body.branch.version;
    return res;
  }

  function expectDepth(res: { status: number; body: any }, field: string, index: number) {
    expect(res.status, JSON.stringify(res.body)).to.equal(422);
    expect(res.body.detail).to.include({
      error: 'depth_limit_exceeded',
      field,
      delta_index: index,
    });
  }

  it('add_node: a chain may reach MAX_NESTING_DEPTH, not one more (in one batch or across batches)', async () => {
    const b = await branch();
    expectDepth(
      await post(b, chain(MAX_DEPTH + 1).deltas),
      `deltas[${MAX_DEPTH}].node.parent_id`,
      MAX_DEPTH,
    );
    const ok = chain(MAX_DEPTH);
    expect((await post(b, ok.deltas)).status).to.equal(200);
    const deeper = chain(1, ok.ids[MAX_DEPTH - 1]);
    expectDepth(await post(b, deeper.deltas), 'deltas[0].node.parent_id', 0);
    expect((await post(b, chain(1, ok.ids[MAX_DEPTH - 2]).deltas)).status).to.equal(200);
    const dry = await api.post(`/v1/branches/${b.id}/validate`, { deltas: deeper.deltas });
    expectDepth(dry, 'deltas[0].node.parent_id', 0);
  });

  it('reparent_node and update_node_data count the height of the subtree they move', async () => {
    const b = await branch();
    const left = chain(MAX_DEPTH - 2); // depths 1..6
    const right = chain(3); // depths 1..3, height 2 below its root
    expect((await post(b, [...left.deltas, ...right.deltas])).status).to.equal(200);
    // right's root under left's depth-6 node: 7, 8, 9 deep
    const move = {
      type: 'reparent_node',
      node_id: right.ids[0],
      parent_id: left.ids[MAX_DEPTH - 3],
    };
    expectDepth(await post(b, [move]), 'deltas[0].parent_id', 0);
    const update = {
      type: 'update_node_data',
      node_id: right.ids[0],
      after: { parent_id: left.ids[MAX_DEPTH - 3] },
    };
    expectDepth(await post(b, [update]), 'deltas[0].after.parent_id', 0);
    // one level higher fits exactly (6, 7, 8)
    const fits = { ...move, parent_id: left.ids[MAX_DEPTH - 4] };
    expect((await post(b, [fits])).status).to.equal(200);
  });

  it('graph file import: a chain deeper than the cap is refused in file terms, nothing created', async () => {
    const ids = Array.from({ length: MAX_DEPTH + 1 }, () => uuid());
    // children listed before their parents: the import orders parents first
    const nodes = ids
      .map((id, i) => ({ id, kind: 'boundary', parent_id: i === 0 ? null : ids[i - 1], data: {} }))
      .reverse();
    const file = { schema_version: 6, project_name: uniqueName('deep'), nodes, edges: [] };
    const res = await api.post('/v1/projects/import', file);
    expect(res.status, JSON.stringify(res.body)).to.equal(422);
    expect(res.body.detail).to.include({
      error: 'depth_limit_exceeded',
      field: 'nodes[0].parent_id',
      delta_index: 0,
    });
    expect((await api.get('/v1/projects')).body.projects).to.deep.equal([]);
    const fits = { ...file, nodes: nodes.slice(1) };
    expect((await api.post('/v1/projects/import', fits)).status).to.equal(201);
  });
});

describe('abuse: orphan_node over the deepest allowed chain', function () {
  this.timeout(120_000);

  it('is decided in one pass: a traced root covers its whole chain, an untraced chain is all orphans', async () => {
    const { maxNestingDepth, maxFindings } = currentHarness().config.limits;
    const w = await workspace(await newUser());
    const traced = chain(maxNestingDepth);
    (traced.deltas[0] as any).node.data = { source_decisions: [uuid()] };
    const untraced = chain(Math.min(maxNestingDepth, maxFindings));
    await w.apply([...traced.deltas, ...untraced.deltas]);
    const res = await w.user.api.post(`/v1/branches/${w.branchId}/validate`, {});
    expect(res.status).to.equal(200);
    const orphans = res.body.findings
      .filter((f: { code: string }) => f.code === 'orphan_node')
      .map((f: { locator: string }) => f.locator);
    expect(res.body.truncated).to.equal(false);
    expect([...orphans].sort()).to.deep.equal([...untraced.ids].sort());
  });
});
