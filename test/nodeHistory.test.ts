/**
 * A node's history (getNodeHistory, getMainNodeHistory): the changes that touched one
 * node (itself, its ports through its port lists, the wires on its ports), newest first
 * and paged, with who, when, which change and which fields, and for each field the
 * change that last set it; read through the trail's touch index, for batches, reverts,
 * merges and imports, at the head or pinned to a version, and only by those who may
 * read the branch or main.
 */
import { expect } from 'chai';
import { grant, newUser, TestUser, uniqueName } from './support/harness';
import { addEdge, addNode, port, uuid } from './support/graphBuilders';
import { BranchHandle, mergeProject } from './support/mergeWorkspace';

async function history(user: TestUser, path: string): Promise<any> {
  const res = await user.api.get(path);
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body;
}

const branchHistory = (user: TestUser, b: { id: string }, node: string, query = '') =>
  history(user, `/v1/branches/${b.id}/node/${node}/history${query}`);

const summary = (body: any) =>
  body.changes.map((c: any) => [c.version, c.kind, c.action, c.fields, c.wires.length]);

/** N (one output port) and M (one input port) added, N renamed, N wired to M, the wire
 * removed: four batches that touch N, one of them through its wire only. */
async function wiredPair(b: BranchHandle) {
  const [out, inp] = [port('out'), port('in')];
  const n = uuid();
  const m = uuid();
  const wire = uuid();
  await b.apply([
    addNode({ id: n, parent_id: null, data: { name: 'n', outputs: [out] } }),
    addNode({ id: m, parent_id: null, data: { name: 'm', inputs: [inp] } }),
  ]);
  await b.apply([{ type: 'update_node_data', node_id: n, after: { name: 'n2' } }]);
  await b.apply([addEdge(out.id, inp.id, wire)]);
  await b.apply([{ type: 'delete_edge', edge_id: wire }]);
  return { n, m, wire, out, inp };
}

describe('node history', function () {
  this.timeout(300_000);

  it('lists the batches that touched a node newest first, paged, with who, fields and wires, and each field’s last setter', async () => {
    const p = await mergeProject(await newUser());
    const b = await p.fork();
    const { n, m, wire, out } = await wiredPair(b);
    await b.apply([addNode({ data: { name: 'unrelated' } })]);

    const all = await branchHistory(p.user, b, n);
    expect(all).to.include({ node_id: n, has_more: false, limit: 50, offset: 0 });
    expect(all.branch).to.deep.equal({ id: b.id, version: 5 });
    expect(summary(all)).to.deep.equal([
      [4, 'batch', null, [], 1],
      [3, 'batch', null, [], 1],
      [2, 'batch', 'changed', ['name'], 0],
      [1, 'batch', 'added', ['kind', 'parent_id', 'name', 'outputs'], 0],
    ]);
    expect(all.changes[0].wires).to.deep.equal([{ id: wire, action: 'removed' }]);
    expect(all.changes[1].wires).to.deep.equal([{ id: wire, action: 'added' }]);
    expect(all.changes[3].ports).to.deep.equal([out.id]);
    for (const c of all.changes) expect(c).to.include({ actor: p.user.userId, branch_id: b.id });
    expect(all.fields).to.deep.equal({
      name: { branch_id: b.id, version: 2 },
      kind: { branch_id: b.id, version: 1 },
      parent_id: { branch_id: b.id, version: 1 },
      outputs: { branch_id: b.id, version: 1 },
    });
    // the wire touches both its nodes; the unrelated batch touches neither
    expect(summary(await branchHistory(p.user, b, m)).map((c: any[]) => c[0])).to.deep.equal([
      4, 3, 1,
    ]);

    const first = await branchHistory(p.user, b, n, '?limit=3');
    expect(first.changes.map((c: any) => c.version)).to.deep.equal([4, 3, 2]);
    expect(first.has_more).to.equal(true);
    const rest = await branchHistory(p.user, b, n, '?limit=3&offset=3');
    expect(rest.changes.map((c: any) => c.version)).to.deep.equal([1]);
    expect(rest.has_more).to.equal(false);
    // fields name their last setter over the whole history, whatever the page
    expect(rest.fields.name).to.deep.equal({ branch_id: b.id, version: 2 });

    // pinned: the history as the branch was at version 2
    const pinned = await branchHistory(p.user, b, n, '?version=2');
    expect(pinned.changes.map((c: any) => c.version)).to.deep.equal([2, 1]);
    const early = await branchHistory(p.user, b, n, '?version=1');
    expect(early.fields.name).to.deep.equal({ branch_id: b.id, version: 1 });
    // a node the view never had is 404, like a missing branch; so is a version never had
    const before = await p.user.api.get(`/v1/branches/${b.id}/node/${n}/history?version=0`);
    expect(before.status).to.equal(404);
    const never = await p.user.api.get(`/v1/branches/${b.id}/node/${uuid()}/history`);
    expect(never.status).to.equal(404);
    const future = await p.user.api.get(`/v1/branches/${b.id}/node/${n}/history?version=9`);
    expect(future.status).to.equal(404);
  });

  it('lists what a delta naming another node did to it: moved by a flatten, removed with its ancestor, its wire with it', async () => {
    const p = await mergeProject(await newUser());
    const b = await p.fork();
    const [box, inner, child, other] = [uuid(), uuid(), uuid(), uuid()];
    const [out, inp] = [port('out'), port('in')];
    await b.apply([
      addNode({ id: box, kind: 'boundary', parent_id: null, data: { name: 'box' } }),
      addNode({ id: inner, kind: 'boundary', parent_id: box, data: { name: 'inner' } }),
      addNode({ id: child, parent_id: inner, data: { name: 'child', outputs: [out] } }),
      addNode({ id: other, parent_id: null, data: { name: 'other', inputs: [inp] } }),
      addEdge(out.id, inp.id),
    ]);
    await b.apply([{ type: 'flatten_boundary', node_id: inner }]);
    await b.apply([{ type: 'delete_node', node_id: box }]);
    const moved = await branchHistory(p.user, b, child);
    expect(summary(moved)).to.deep.equal([
      [3, 'batch', 'removed', [], 1],
      [2, 'batch', 'changed', ['parent_id'], 0],
      [1, 'batch', 'added', ['kind', 'parent_id', 'name', 'outputs'], 1],
    ]);
    expect(moved.fields.parent_id).to.deep.equal({ branch_id: b.id, version: 2 });
    // the wire went with child's removal: the other end's history says so
    const otherEnd = await branchHistory(p.user, b, other);
    expect(otherEnd.changes[0]).to.deep.include({ version: 3, action: null });
    expect(otherEnd.changes[0].wires.map((w: any) => w.action)).to.deep.equal(['removed']);
  });

  it('lists a revert, then the merge on main, and main’s changes beneath a later branch', async () => {
    const p = await mergeProject(await newUser());
    const b = await p.fork();
    const { n } = await wiredPair(b);
    const reverted = await p.user.api.post(`/v1/branches/${b.id}/revert`, {
      version: 2,
      expected_version: b.version,
    });
    expect(reverted.status, JSON.stringify(reverted.body)).to.equal(200);
    b.version = reverted.body.branch.version;
    const afterRevert = await branchHistory(p.user, b, n);
    expect(afterRevert.changes[0]).to.deep.include({
      version: 5,
      kind: 'revert',
      reverted_version: 2,
      action: 'changed',
    });
    expect(afterRevert.changes[0].fields).to.include('name');
    expect(afterRevert.fields.name).to.deep.equal({ branch_id: b.id, version: 5 });

    await b.mergeOk();
    const onMain = await history(p.user, `/v1/graph/${p.projectId}/node/${n}/history`);
    expect(onMain.branch.id).to.equal(p.mainId);
    expect(onMain.changes).to.have.length(1);
    expect(onMain.changes[0]).to.deep.include({
      branch_id: p.mainId,
      version: 1,
      kind: 'merge',
      merged_branch_id: b.id,
      action: 'added',
    });
    expect(onMain.changes[0].fields).to.include.members(['name', 'outputs']);

    // a branch forked after the merge sees main's change beneath its own, newest first
    const later = await p.fork();
    await later.apply([{ type: 'update_node_data', node_id: n, after: { description: 'd' } }]);
    const layered = await branchHistory(p.user, later, n);
    expect(layered.changes.map((c: any) => [c.branch_id, c.version, c.kind])).to.deep.equal([
      [later.id, 1, 'batch'],
      [p.mainId, 1, 'merge'],
    ]);
    expect(layered.fields.description).to.deep.equal({ branch_id: later.id, version: 1 });
    expect(layered.fields.kind).to.deep.equal({ branch_id: p.mainId, version: 1 });
    // the merged branch keeps its own history
    expect((await branchHistory(p.user, b, n)).changes).to.have.length(5);
  });

  it('lists an imported node’s import (main’s version 0), and what a merge changed after', async () => {
    const user = await newUser();
    const [a, o] = [uuid(), port('o')];
    const res = await user.api.post('/v1/projects/import', {
      schema_version: 6,
      project_name: uniqueName('imported'),
      nodes: [{ id: a, kind: 'behavior', parent_id: null, data: { name: 'a', outputs: [o] } }],
      edges: [],
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const projectId = res.body.project.id;
    const main = await history(user, `/v1/graph/${projectId}/node/${a}/history`);
    expect(main.changes).to.have.length(1);
    expect(main.changes[0]).to.deep.include({
      version: 0,
      kind: 'import',
      action: 'added',
      actor: user.userId,
      merged_branch_id: null,
    });
    expect(main.changes[0].ports).to.deep.equal([o.id]);
    expect(main.fields.name).to.deep.equal({ branch_id: res.body.main_branch.id, version: 0 });
    // the trail lists the import too, bounded: counts, no deltas
    const trail = await history(user, `/v1/branches/${res.body.main_branch.id}/changes`);
    expect(trail.changes).to.have.length(1);
    expect(trail.changes[0]).to.include({ version: 0, kind: 'import' });
    expect(trail.changes[0].deltas).to.deep.equal([]);
  });

  it('lists a wire added with its nodes on each end’s change: in a batch, in the merge on main and in an import', async () => {
    const p = await mergeProject(await newUser());
    const b = await p.fork();
    const [n, m, k] = [uuid(), uuid(), uuid()];
    const [out, inp, kin] = [port('out'), port('in'), port('kin')];
    const [w1, w2] = [uuid(), uuid()];
    await b.apply([addNode({ id: k, parent_id: null, data: { name: 'k', inputs: [kin] } })]);
    // n and m are added with both wires; k, added before, gets w2 through its port
    await b.apply([
      addNode({ id: n, parent_id: null, data: { name: 'n', outputs: [out] } }),
      addNode({ id: m, parent_id: null, data: { name: 'm', inputs: [inp] } }),
      addEdge(out.id, inp.id, w1),
      addEdge(out.id, kin.id, w2),
    ]);
    const wiresAt = (body: any) =>
      body.changes.map((c: any) => [c.version, c.action, c.wires.map((w: any) => w.id).sort()]);
    const added = (...ids: string[]) => [...ids].sort();
    expect(wiresAt(await branchHistory(p.user, b, n))).to.deep.equal([[2, 'added', added(w1, w2)]]);
    expect(wiresAt(await branchHistory(p.user, b, m))).to.deep.equal([[2, 'added', [w1]]]);
    expect(wiresAt(await branchHistory(p.user, b, k))).to.deep.equal([
      [2, null, [w2]],
      [1, 'added', []],
    ]);

    await b.mergeOk();
    const onMain = (node: string) =>
      history(p.user, `/v1/graph/${p.projectId}/node/${node}/history`);
    expect(wiresAt(await onMain(n))).to.deep.equal([[1, 'added', added(w1, w2)]]);
    expect(wiresAt(await onMain(k))).to.deep.equal([[1, 'added', [w2]]]);

    const [a, c, e, o, i] = [uuid(), uuid(), uuid(), port('o'), port('i')];
    const imported = await p.user.api.post('/v1/projects/import', {
      schema_version: 6,
      project_name: uniqueName('wired'),
      nodes: [
        { id: a, kind: 'behavior', parent_id: null, data: { name: 'a', outputs: [o] } },
        { id: c, kind: 'behavior', parent_id: null, data: { name: 'c', inputs: [i] } },
      ],
      edges: [{ id: e, source_handle: o.id, target_handle: i.id }],
    });
    expect(imported.status, JSON.stringify(imported.body)).to.equal(201);
    for (const node of [a, c]) {
      const body = await history(
        p.user,
        `/v1/graph/${imported.body.project.id}/node/${node}/history`,
      );
      expect(wiresAt(body)).to.deep.equal([[0, 'added', [e]]]);
      expect(body.changes[0].wires).to.deep.equal([{ id: e, action: 'added' }]);
    }
  });

  it('is read by whoever may read the branch or main: 404 for others', async () => {
    const p = await mergeProject(await newUser());
    const b = await p.fork();
    const { n } = await wiredPair(b);
    await b.mergeOk();
    const stranger = await newUser();
    const mainPath = `/v1/graph/${p.projectId}/node/${n}/history`;
    expect((await stranger.api.get(`/v1/branches/${b.id}/node/${n}/history`)).status).to.equal(404);
    expect((await stranger.api.get(mainPath)).status).to.equal(404);
    expect((await stranger.api.get(`/v1/branches/${p.mainId}/node/${n}/history`)).status).to.equal(
      404,
    );
    // a viewer of the project reads main's history, not the owner's branch
    const viewer = await newUser();
    await grant(p.projectId, viewer, 'viewer');
    expect((await history(viewer, mainPath)).changes).to.have.length(1);
    expect((await viewer.api.get(`/v1/branches/${b.id}/node/${n}/history`)).status).to.equal(404);
    // bad input is a clear 422, never a 500
    const bad = await p.user.api.get(`/v1/branches/${b.id}/node/${n}/history?limit=0`);
    expect(bad.status).to.equal(422);
    const notUuid = await p.user.api.get(`/v1/branches/${b.id}/node/nope/history`);
    expect(notUuid.status).to.equal(422);
  });
});
