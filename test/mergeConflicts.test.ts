/** Merge conflicts in graph terms: MergeConflict in the OpenAPI document. */
import { expect } from 'chai';
import { newUser } from './support/harness';
import { addEdge, addNode, port, uuid } from './support/graphBuilders';
import { BranchHandle, conflictsOf, MergeProject, mergeProject } from './support/mergeWorkspace';

interface Race {
  p: MergeProject;
  a: BranchHandle;
  b: BranchHandle;
}

/** Seeds main, forks a and b at the same main version, applies, merges a: b is behind. */
async function race(seed: unknown[], onA: unknown[], onB: unknown[]): Promise<Race> {
  const p = await mergeProject(await newUser());
  if (seed.length > 0) await p.seed(seed);
  const a = await p.fork();
  const b = await p.fork();
  if (onA.length > 0) await a.apply(onA);
  if (onB.length > 0) await b.apply(onB);
  await a.mergeOk();
  return { p, a, b };
}

/** Every conflict states what each side did: an action and a summary. */
function expectBothSides(conflict: any): void {
  for (const side of ['branch_change', 'main_change']) {
    expect(conflict[side], `${conflict.reason} ${side}`).to.be.an('object');
    expect(conflict[side].action, `${conflict.reason} ${side}.action`).to.be.a('string');
    expect(conflict[side].summary, `${conflict.reason} ${side}.summary`).to.be.a('string');
    expect(conflict[side].summary.length).to.be.greaterThan(0);
  }
}

/** b's merge is refused; nothing changed on either side; each conflict names both sides. */
async function refused({ p, b }: Race): Promise<any[]> {
  const mainBefore = await p.main();
  const branchBefore = await b.graph();
  const conflicts = conflictsOf(await b.merge());
  expect(conflicts.length).to.be.greaterThan(0);
  conflicts.forEach(expectBothSides);
  expect(await p.main()).to.deep.equal(mainBefore);
  expect(await b.graph()).to.deep.equal(branchBefore);
  const list = await p.user.api.get(`/v1/projects/${p.projectId}/branches`);
  expect(list.body.branches.map((x: any) => x.id)).to.include(b.id); // still active
  const preview = await b.preview();
  expect(preview.conflicts).to.deep.equal(conflicts);
  expect(preview.can_merge).to.equal(false);
  return conflicts;
}

const update = (nodeId: string, after: Record<string, unknown>) => ({
  type: 'update_node_data',
  node_id: nodeId,
  after,
});

describe('merge conflicts in graph terms', function () {
  this.timeout(60_000);
  it('modified_on_both: the same field changed differently, with both sides and the branch delta', async () => {
    const n = uuid();
    const r = await race(
      [addNode({ id: n, data: { name: 'n', description: 'base' } })],
      [update(n, { description: 'on main' })],
      [update(n, { description: 'on branch', constraints: ['c'] })],
    );
    const [c, ...rest] = await refused(r);
    expect(rest).to.deep.equal([]);
    expect(c).to.deep.include({
      reason: 'modified_on_both',
      error: null,
      entity_id: n,
      entity_kind: 'node',
      path: 'n',
      fields: ['description'],
      delta_index: 0,
      batch_version: 1,
    });
    expect(c.branch_change).to.include({ action: 'modified' });
    expect(c.branch_change.values).to.deep.equal({ description: 'on branch' });
    expect(c.main_change.values).to.deep.equal({ description: 'on main' });
  });

  it('merges without conflict when both sides made the same change or different fields', async () => {
    const n = uuid();
    const r = await race(
      [addNode({ id: n, data: { name: 'n' } })],
      [update(n, { description: 'same', status: 'running' })],
      [update(n, { description: 'same', constraints: ['c'] })],
    );
    expect((await r.b.mergeOk()).mode).to.equal('replay');
    const node = (await r.p.main()).nodes[0];
    expect(node.data).to.include({ description: 'same', status: 'running' });
    expect(node.data.constraints).to.deep.equal(['c']);
  });

  it('deleted_on_main: the branch changed a node main deleted', async () => {
    const n = uuid();
    const r = await race(
      [addNode({ id: n, data: { name: 'n' } })],
      [{ type: 'delete_node', node_id: n }],
      [update(n, { name: 'renamed' })],
    );
    const [c] = await refused(r);
    expect(c).to.deep.include({ reason: 'deleted_on_main', entity_id: n, entity_kind: 'node' });
    expect(c.main_change).to.deep.equal({
      action: 'deleted',
      summary: 'deleted the node',
      values: null,
    });
    expect(c.branch_change.action).to.equal('modified');
    expect(c.path).to.equal('renamed');
  });

  it('deleted_on_main: the branch added a node inside a boundary main deleted', async () => {
    const box = uuid();
    const r = await race(
      [addNode({ id: box, kind: 'boundary', data: { name: 'box' } })],
      [{ type: 'delete_node', node_id: box }],
      [addNode({ parent_id: box, data: { name: 'inside' } })],
    );
    const [c] = await refused(r);
    expect(c).to.deep.include({ reason: 'deleted_on_main', entity_id: box });
    expect(c.branch_change.summary).to.contain('added node "inside" inside it');
  });

  it('deleted_on_branch_modified_on_main: the branch deleted a node main changed', async () => {
    const n = uuid();
    const r = await race(
      [addNode({ id: n, data: { name: 'n' } })],
      [update(n, { description: 'kept on main' })],
      [{ type: 'delete_node', node_id: n }],
    );
    const [c] = await refused(r);
    expect(c).to.deep.include({
      reason: 'deleted_on_branch_modified_on_main',
      entity_id: n,
      fields: ['description'],
      delta_index: 0,
      batch_version: 1,
    });
    expect(c.branch_change).to.deep.equal({
      action: 'deleted',
      summary: 'deleted the node',
      values: null,
    });
    expect(c.main_change.values).to.deep.equal({ description: 'kept on main' });
  });

  it('rewired_on_both: the same input port wired differently on each side', async () => {
    const [o1, o2, i] = [port('o1'), port('o2'), port('i')];
    const r = await race(
      [
        addNode({ data: { name: 's1', outputs: [o1] } }),
        addNode({ data: { name: 's2', outputs: [o2] } }),
        addNode({ data: { name: 'dst', inputs: [i] } }),
      ],
      [addEdge(o1.id, i.id)],
      [addEdge(o2.id, i.id)],
    );
    const [c] = await refused(r);
    expect(c).to.deep.include({
      reason: 'rewired_on_both',
      entity_id: i.id,
      entity_kind: 'port',
      path: 'dst:i',
      fields: ['source_handle'],
    });
    expect(c.branch_change).to.include({ action: 'rewired' });
    expect(c.branch_change.values).to.deep.equal({ source_handle: [o2.id] });
    expect(c.main_change.values).to.deep.equal({ source_handle: [o1.id] });
  });

  it('reparent_conflict: both sides moved the node to different parents', async () => {
    const [p1, p2, n] = [uuid(), uuid(), uuid()];
    const r = await race(
      [
        addNode({ id: p1, kind: 'boundary', data: { name: 'p1' } }),
        addNode({ id: p2, kind: 'boundary', data: { name: 'p2' } }),
        addNode({ id: n, data: { name: 'n' } }),
      ],
      [{ type: 'reparent_node', node_id: n, parent_id: p1 }],
      [{ type: 'reparent_node', node_id: n, parent_id: p2 }],
    );
    const [c] = await refused(r);
    expect(c).to.deep.include({ reason: 'reparent_conflict', entity_id: n, fields: ['parent_id'] });
    expect(c.branch_change.values).to.deep.equal({ parent_id: p2 });
    expect(c.main_change.values).to.deep.equal({ parent_id: p1 });
  });

  it('reparent_conflict: moves on each side that together would close a containment cycle', async () => {
    const [x, y] = [uuid(), uuid()];
    const r = await race(
      [
        addNode({ id: x, kind: 'boundary', data: { name: 'x' } }),
        addNode({ id: y, kind: 'boundary', data: { name: 'y' } }),
      ],
      [{ type: 'reparent_node', node_id: x, parent_id: y }],
      [{ type: 'reparent_node', node_id: y, parent_id: x }],
    );
    const [c] = await refused(r);
    expect(c).to.deep.include({ reason: 'reparent_conflict', entity_id: y });
    expect(c.main_change.values).to.deep.equal({ id: x, parent_id: y });
  });

  it('name_collision: siblings, and ports of one node, named alike on each side', async () => {
    const [box, n] = [uuid(), uuid()];
    const [pa, pb] = [port('x'), port('x')];
    const mine = uuid();
    const r = await race(
      [
        addNode({ id: box, kind: 'boundary', data: { name: 'box' } }),
        addNode({ id: n, data: { name: 'n', outputs: [port('keep')] } }),
      ],
      [addNode({ parent_id: box, data: { name: 'dup' } }), update(n, { inputs: [pa] })],
      [addNode({ id: mine, parent_id: box, data: { name: 'dup' } }), update(n, { inputs: [pb] })],
    );
    const conflicts = await refused(r);
    const node = conflicts.find((c) => c.reason === 'name_collision' && c.entity_id === mine);
    expect(node).to.deep.include({ entity_kind: 'node', path: 'box.dup', fields: ['name'] });
    expect(node.main_change.values).to.include({ name: 'dup', parent_id: box });
    const onPort = conflicts.find((c) => c.reason === 'name_collision' && c.entity_id === pb.id);
    expect(onPort).to.deep.include({ entity_kind: 'port', path: 'n:x' });
    const list = conflicts.find((c) => c.reason === 'modified_on_both' && c.entity_id === n);
    expect(list.fields).to.deep.equal(['inputs']); // both replaced the inputs list
  });

  it('reports the invariant error a replayed batch raises (both sides deleted the same node)', async () => {
    const n = uuid();
    const r = await race(
      [addNode({ id: n, data: { name: 'n' } })],
      [{ type: 'delete_node', node_id: n }],
      [addNode({ data: { name: 'other' } }), { type: 'delete_node', node_id: n }],
    );
    const [c] = await refused(r);
    expect(c).to.deep.include({
      reason: 'node_not_found',
      error: 'node_not_found',
      entity_id: n,
      delta_index: 1,
      batch_version: 1,
    });
    expect(c.branch_change.summary).to.contain('delete_node (batch 1, delta 1) no longer applies');
    expect(c.main_change).to.deep.include({ action: 'deleted' });
  });

  it('reports id_collision when both sides added the same node', async () => {
    const twin = addNode({ data: { name: 'twin' } });
    const r = await race([], [twin], [twin]);
    const [c] = await refused(r);
    expect(c).to.deep.include({ reason: 'id_collision', error: 'id_collision' });
    expect(c.entity_id).to.equal((twin.node as any).id);
  });
});
