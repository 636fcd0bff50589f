/** getBranchDiff between two versions of a branch, and getMainDiff between two versions of main. */
import { expect } from 'chai';
import { grant, newUser } from './support/harness';
import { addEdge, addNode, port, uuid } from './support/graphBuilders';
import { mergeProject } from './support/mergeWorkspace';

const sorted = (ids: string[]) => [...ids].sort();

describe('diffs between versions', function () {
  this.timeout(60_000);

  it('getBranchDiff with from_version/to_version compares the branch with itself', async () => {
    const p = await mergeProject(await newUser());
    const seeded = uuid();
    await p.seed([addNode({ id: seeded, data: { name: 'seeded' } })]);
    const b = await p.fork();
    const [a, c] = [uuid(), uuid()];
    const out = port('out');
    await b.apply([addNode({ id: a, data: { name: 'a', outputs: [out] } })]); // v1
    await b.apply([
      { type: 'update_node_data', node_id: a, after: { name: 'a2' } },
      addNode({ id: c, data: { name: 'c' } }),
    ]); // v2
    await b.apply([{ type: 'delete_node', node_id: seeded }]); // v3
    // main moves after the fork: a pinned diff of the branch never sees it
    await p.seed([addNode({ data: { name: 'later on main' } })]);
    const api = p.user.api;

    const v1v2 = await api.get(`/v1/branches/${b.id}/diff?from_version=1&to_version=2`);
    expect(v1v2.status, JSON.stringify(v1v2.body)).to.equal(200);
    expect(v1v2.body.branch).to.deep.equal({ id: b.id, version: 2 });
    expect(v1v2.body.main_branch).to.deep.equal({ id: p.mainId, version: 1 });
    expect(v1v2.body.nodes).to.deep.equal({
      added: [c],
      removed: [],
      changed: [{ id: a, fields: ['name'] }],
    });
    expect(v1v2.body.ports).to.deep.equal({ added: [], removed: [], changed: [] });

    // from_version defaults to 0, the fork point (main at the branch's base)
    const upTo1 = await api.get(`/v1/branches/${b.id}/diff?to_version=1`);
    expect(upTo1.body.nodes).to.deep.equal({ added: [a], removed: [], changed: [] });
    expect(upTo1.body.ports.added).to.deep.equal([out.id]);
    // to_version defaults to the head
    const from2 = await api.get(`/v1/branches/${b.id}/diff?from_version=2`);
    expect(from2.body.branch).to.deep.equal({ id: b.id, version: 3 });
    expect(from2.body.nodes).to.deep.equal({ added: [], removed: [seeded], changed: [] });
    const whole = await api.get(`/v1/branches/${b.id}/diff?from_version=0`);
    expect(whole.body.nodes).to.deep.equal({
      added: sorted([a, c]),
      removed: [seeded],
      changed: [],
    });
    const none = await api.get(`/v1/branches/${b.id}/diff?from_version=2&to_version=2`);
    expect(none.body.nodes).to.deep.equal({ added: [], removed: [], changed: [] });

    // without versions: the branch against current main, as before (main's new node is removed)
    const now = await b.diff();
    expect(now.main_branch).to.deep.equal({ id: p.mainId, version: 2 });
    expect(now.nodes.added).to.deep.equal(sorted([a, c]));
    expect(now.nodes.removed).to.have.length(2);
    expect(now.nodes.removed).to.include(seeded);
  });

  it('404 version_not_found for a version the branch never had; 422 when from is above to', async () => {
    const p = await mergeProject(await newUser());
    const b = await p.fork();
    await b.apply([addNode({})]);
    const api = p.user.api;
    const missing = await api.get(`/v1/branches/${b.id}/diff?to_version=5`);
    expect(missing.status).to.equal(404);
    expect(missing.body.detail).to.include({ code: 'version_not_found', oldest: 0, newest: 1 });
    const reversed = await api.get(`/v1/branches/${b.id}/diff?from_version=1&to_version=0`);
    expect(reversed.status).to.equal(422);
    expect(reversed.body.detail).to.be.an('array');
    const mainMissing = await api.get(`/v1/projects/${p.projectId}/main/diff?from_version=3`);
    expect(mainMissing.status).to.equal(404);
    expect(mainMissing.body.detail).to.include({ code: 'version_not_found', newest: 0 });
  });

  it('getMainDiff compares two versions of main; by default what the last merge changed', async () => {
    const owner = await newUser();
    const p = await mergeProject(owner);
    const [x, y] = [uuid(), uuid()];
    const [o, i] = [port('o'), port('i')];
    await p.seed([
      addNode({ id: x, data: { name: 'x', outputs: [o] } }),
      addNode({ id: y, data: { name: 'y', inputs: [i] } }),
    ]); // main v1
    const b = await p.fork();
    const wire = uuid();
    await b.apply([
      { type: 'update_node_data', node_id: x, after: { description: 'now described' } },
      addEdge(o.id, i.id, wire),
      { type: 'delete_node', node_id: y },
    ]);
    await b.mergeOk(); // main v2
    const api = owner.api;

    const last = await api.get(`/v1/projects/${p.projectId}/main/diff`);
    expect(last.status, JSON.stringify(last.body)).to.equal(200);
    expect(last.body.branch).to.deep.equal({ id: p.mainId, version: 2 });
    expect(last.body.main_branch).to.deep.equal({ id: p.mainId, version: 1 });
    expect(last.body.nodes).to.deep.equal({
      added: [],
      removed: [y],
      changed: [{ id: x, fields: ['description'] }],
    });
    expect(last.body.ports).to.deep.equal({ added: [], removed: [i.id], changed: [] });
    // the wire was added and removed with its port in one merge: not in main at either version
    expect(last.body.edges).to.deep.equal({ added: [], removed: [], changed: [] });

    const first = await api.get(
      `/v1/projects/${p.projectId}/main/diff?from_version=0&to_version=1`,
    );
    expect(first.body.nodes).to.deep.equal({ added: sorted([x, y]), removed: [], changed: [] });
    expect(first.body.ports.added).to.deep.equal(sorted([o.id, i.id]));
    const all = await api.get(`/v1/projects/${p.projectId}/main/diff?from_version=0`);
    expect(all.body.nodes).to.deep.equal({ added: [x], removed: [], changed: [] });

    // a pinned diff on main's own id through getBranchDiff reads main's line the same way
    const same = await api.get(`/v1/branches/${p.mainId}/diff?from_version=1&to_version=2`);
    expect(same.status, JSON.stringify(same.body)).to.equal(200);
    expect(same.body.nodes).to.deep.equal(last.body.nodes);

    // any reader of the project may call it; others get 404
    const viewer = await newUser();
    const hidden = await viewer.api.get(`/v1/projects/${p.projectId}/main/diff`);
    expect(hidden.status).to.equal(404);
    await grant(p.projectId, viewer, 'viewer');
    const seen = await viewer.api.get(`/v1/projects/${p.projectId}/main/diff`);
    expect(seen.status).to.equal(200);
    expect(seen.body.nodes).to.deep.equal(last.body.nodes);
  });
});
