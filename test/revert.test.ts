/**
 * revertBranch: the inverse of one batch as a new batch, through HTTP against the real
 * Neo4j and Redis. Reverted additions go, reverted renames and deletions come back as
 * they were (a deleted node with its subtree, ports and wires), later work that depends
 * on the batch is a 409 revert_conflict, and a branch holding a revert merges into main
 * the same way by fast-forward and by replay.
 */
import { expect } from 'chai';
import { content, mergeProject, MergeProject } from './support/mergeWorkspace';
import { addEdge, addNode, port, uuid } from './support/graphBuilders';
import { newUser, TestUser } from './support/harness';

interface Branch {
  id: string;
  version: number;
  apply(deltas: unknown[]): Promise<any>;
  graph(): Promise<any>;
  merge(): Promise<any>;
}

async function branchOf(p: MergeProject): Promise<Branch> {
  const handle = await p.fork();
  return {
    id: handle.id,
    get version() {
      return handle.version;
    },
    set version(v: number) {
      handle.version = v;
    },
    apply: (deltas) => handle.apply(deltas),
    graph: () => handle.graph(),
    merge: () => handle.mergeOk(),
  };
}

function revert(
  user: TestUser,
  branchId: string,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
) {
  return user.api.post(`/v1/branches/${branchId}/revert`, body, { headers });
}

/** Reverts version `k` at the branch's version and expects 200; the branch moves on. */
async function revertOk(user: TestUser, b: Branch, k: number): Promise<any> {
  const res = await revert(user, b.id, { version: k, expected_version: b.version });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  expect(res.body.reverted_version).to.equal(k);
  expect(res.body.branch.version).to.equal(b.version + 1);
  b.version = res.body.branch.version;
  return res.body;
}

const names = (graph: any): string[] => graph.nodes.map((n: any) => n.data.name).sort();

async function graphAt(user: TestUser, branchId: string, version: number): Promise<any> {
  const res = await user.api.get(`/v1/branches/${branchId}/graph?version=${version}`);
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body;
}

/** A boundary holding a worker whose output is wired to a sink outside it. */
function wiredBox() {
  const [box, job, sink] = [uuid(), uuid(), uuid()];
  const out = port('out', 'bytes');
  const inp = port('in', 'bytes');
  const wire = uuid();
  return {
    ids: { box, job, sink, out: out.id, inp: inp.id, wire },
    deltas: [
      addNode({ id: box, kind: 'boundary', data: { name: 'box' } }),
      addNode({ id: job, parent_id: box, data: { name: 'job', outputs: [out] } }),
      addNode({ id: sink, data: { name: 'sink', inputs: [inp] } }),
      addEdge(out.id, inp.id, wire),
    ],
  };
}

describe('revertBranch', function () {
  this.timeout(180_000);

  it('reverts an addition, a rename and a deletion, each as a new batch on the trail', async () => {
    const user = await newUser();
    const p = await mergeProject(user);
    const b = await branchOf(p);
    const box = wiredBox();
    await b.apply(box.deltas); // v1
    const [a, c] = [uuid(), uuid()];
    await b.apply([addNode({ id: a, data: { name: 'a' } })]); // v2
    await b.apply([addNode({ id: c, data: { name: 'c' } })]); // v3
    await b.apply([{ type: 'update_node_data', node_id: a, after: { name: 'renamed' } }]); // v4
    await b.apply([{ type: 'delete_node', node_id: box.ids.box }]); // v5
    expect(names(await b.graph())).to.deep.equal(['c', 'renamed', 'sink']);

    // the deletion: box, its child, the child's port and the wire come back as they were
    await revertOk(user, b, 5); // v6
    expect(content(await b.graph())).to.deep.equal(content(await graphAt(user, b.id, 4)));

    // the rename
    await revertOk(user, b, 4); // v7
    expect(names(await b.graph())).to.deep.equal(['a', 'box', 'c', 'job', 'sink']);

    // the addition
    await revertOk(user, b, 3); // v8
    const graph = await b.graph();
    expect(content(graph)).to.deep.equal(content(await graphAt(user, b.id, 2)));
    expect(graph.edges).to.deep.equal([
      {
        id: box.ids.wire,
        source: box.ids.job,
        source_handle: box.ids.out,
        target: box.ids.sink,
        target_handle: box.ids.inp,
      },
    ]);

    const trail = await user.api.get(`/v1/branches/${b.id}/changes`);
    expect(trail.status).to.equal(200);
    const byVersion = new Map(trail.body.changes.map((ch: any) => [ch.version, ch]));
    expect(byVersion.get(6)).to.include({ kind: 'revert', reverted_version: 5 });
    expect(byVersion.get(8)).to.include({ kind: 'revert', reverted_version: 3 });
    expect((byVersion.get(8) as any).deltas).to.deep.equal([{ type: 'delete_node', node_id: c }]);
    expect(byVersion.get(5)).to.include({ kind: 'batch' });

    // a renamed entity's addition can no longer be reverted alone
    const renamed = await revert(user, b.id, { version: 2, expected_version: 8 });
    expect(renamed.status).to.equal(409);
    expect(renamed.body.detail.entities).to.deep.equal([{ kind: 'node', id: a, version: 4 }]);
  });

  it('refuses with revert_conflict when a later batch changed or built on what the batch wrote', async () => {
    const user = await newUser();
    const p = await mergeProject(user);
    const b = await branchOf(p);
    const a = uuid();
    const box = uuid();
    await b.apply([addNode({ id: a, data: { name: 'a' } })]); // v1
    await b.apply([{ type: 'update_node_data', node_id: a, after: { name: 'b' } }]); // v2
    await b.apply([addNode({ id: box, kind: 'boundary', data: { name: 'box' } })]); // v3
    const child = uuid();
    await b.apply([addNode({ id: child, parent_id: box, data: { name: 'child' } })]); // v4

    const changed = await revert(user, b.id, { version: 1, expected_version: 4 });
    expect(changed.status, JSON.stringify(changed.body)).to.equal(409);
    expect(changed.body.detail.code).to.equal('revert_conflict');
    expect(changed.body.detail.entities).to.deep.equal([{ kind: 'node', id: a, version: 2 }]);

    const builtOn = await revert(user, b.id, { version: 3, expected_version: 4 });
    expect(builtOn.status, JSON.stringify(builtOn.body)).to.equal(409);
    expect(builtOn.body.detail.entities).to.deep.equal([{ kind: 'node', id: child, version: 4 }]);

    // nothing was written
    const graph = await b.graph();
    expect(graph.branch.version).to.equal(4);
    expect(names(graph)).to.deep.equal(['b', 'box', 'child']);
  });

  it('refuses with revert_conflict when a port it brings back would hold a wire at the wrong end', async () => {
    // a wire runs from an output port to an input port; a later wire may name a port id
    // the batch removed (it dangles), and bringing that port back must not turn the
    // dangling end into a wire into an output or out of an input
    const user = await newUser();
    const p = await mergeProject(user);
    const b = await branchOf(p);
    const [a, c] = [uuid(), uuid()];
    const [out, other] = [port('out'), port('other')];
    await b.apply([addNode({ id: a, data: { name: 'a', outputs: [out] } })]); // v1
    await b.apply([{ type: 'update_node_data', node_id: a, after: { outputs: [] } }]); // v2
    const wire = uuid();
    await b.apply([
      addNode({ id: c, data: { name: 'c', outputs: [other] } }),
      addEdge(other.id, out.id, wire), // v3: its target names the removed port
    ]);

    const res = await revert(user, b.id, { version: 2, expected_version: 3 });
    expect(res.status, JSON.stringify(res.body)).to.equal(409);
    expect(res.body.detail.code).to.equal('revert_conflict');
    expect(res.body.detail.entities).to.deep.equal([{ kind: 'edge', id: wire, version: 3 }]);
    const graph = await b.graph();
    expect(graph.branch.version).to.equal(3);
    expect(graph.nodes.find((n: any) => n.id === a).data.outputs).to.deep.equal([]);
  });

  it('refuses with revert_conflict when a port moved back to its former channel holds a later wire', async () => {
    const user = await newUser();
    const p = await mergeProject(user);
    const b = await branchOf(p);
    const [a, c] = [uuid(), uuid()];
    const [moved, source] = [port('moved'), port('source')];
    await b.apply([addNode({ id: a, data: { name: 'a', outputs: [moved] } })]); // v1
    // v2: the port moves to the inputs (a moved port is a new port)
    await b.apply([
      { type: 'update_node_data', node_id: a, after: { outputs: [], inputs: [moved] } },
    ]);
    const wire = uuid();
    await b.apply([
      addNode({ id: c, data: { name: 'c', outputs: [source] } }),
      addEdge(source.id, moved.id, wire), // v3: into the port, now an input
    ]);

    const res = await revert(user, b.id, { version: 2, expected_version: 3 });
    expect(res.status, JSON.stringify(res.body)).to.equal(409);
    expect(res.body.detail.entities).to.deep.equal([{ kind: 'edge', id: wire, version: 3 }]);
    expect((await b.graph()).edges.map((e: any) => e.target)).to.deep.equal([a]);
  });

  it('refuses with revert_conflict when a wire it brings back would end at a port put there since', async () => {
    const user = await newUser();
    const p = await mergeProject(user);
    const b = await branchOf(p);
    const [c, d] = [uuid(), uuid()];
    const [source, later] = [port('source'), port('later')];
    const wire = uuid();
    await b.apply([
      addNode({ id: c, data: { name: 'c', outputs: [source] } }),
      addEdge(source.id, later.id, wire), // v1: its target names no port yet
    ]);
    await b.apply([{ type: 'delete_edge', edge_id: wire }]); // v2
    await b.apply([addNode({ id: d, data: { name: 'd', outputs: [later] } })]); // v3: an output

    const res = await revert(user, b.id, { version: 2, expected_version: 3 });
    expect(res.status, JSON.stringify(res.body)).to.equal(409);
    expect(res.body.detail.entities).to.deep.equal([{ kind: 'port', id: later.id, version: 3 }]);
    expect((await b.graph()).edges).to.deep.equal([]);
  });

  it('refuses main, a stale expected_version and a version the branch never had', async () => {
    const user = await newUser();
    const p = await mergeProject(user);
    await p.seed([addNode({ data: { name: 'seeded' } })]);
    const onMain = await revert(user, p.mainId, { version: 1, expected_version: 1 });
    expect(onMain.status).to.equal(409);
    expect(onMain.body.detail.code).to.equal('main_not_writable');

    const b = await branchOf(p);
    await b.apply([addNode({ data: { name: 'x' } })]);
    const stale = await revert(user, b.id, { version: 1, expected_version: 0 });
    expect(stale.status).to.equal(409);
    expect(stale.body.detail).to.deep.include({ code: 'version_conflict', current_version: 1 });

    const never = await revert(user, b.id, { version: 2, expected_version: 1 });
    expect(never.status).to.equal(404);
    expect(never.body.detail).to.deep.include({ code: 'version_not_found', newest: 1 });

    const stranger = await newUser();
    const hidden = await revert(stranger, b.id, { version: 1, expected_version: 1 });
    expect(hidden.status).to.equal(404);
    expect((await b.graph()).branch.version).to.equal(1);
  });

  it('honours an Idempotency-Key: a repeat is answered from the first revert', async () => {
    const user = await newUser();
    const p = await mergeProject(user);
    const b = await branchOf(p);
    await b.apply([addNode({ data: { name: 'x' } })]);
    const key = `revert-${uuid()}`;
    const body = { version: 1, expected_version: 1 };
    const first = await revert(user, b.id, body, { 'Idempotency-Key': key });
    expect(first.status, JSON.stringify(first.body)).to.equal(200);
    const again = await revert(user, b.id, body, { 'Idempotency-Key': key });
    expect(again.status).to.equal(200);
    expect(again.headers.get('idempotent-replayed')).to.equal('true');
    expect(again.body).to.deep.equal(first.body);
    expect((await b.graph()).branch.version).to.equal(2);
    const reused = await revert(
      user,
      b.id,
      { version: 1, expected_version: 2 },
      { 'Idempotency-Key': key },
    );
    expect(reused.status).to.equal(422);
  });

  it('a branch holding a revert merges into main by fast-forward', async () => {
    const user = await newUser();
    const p = await mergeProject(user);
    const kept = uuid();
    await p.seed([addNode({ id: kept, data: { name: 'kept' } })]);
    const b = await branchOf(p);
    const box = wiredBox();
    await b.apply(box.deltas); // v1
    await b.apply([{ type: 'delete_node', node_id: kept }]); // v2
    await b.apply([{ type: 'update_node_data', node_id: box.ids.sink, after: { name: 'drain' } }]); // v3
    await revertOk(user, b, 2); // kept comes back
    const head = await b.graph();
    expect((await b.merge()).mode).to.equal('fast_forward');
    expect(content(await p.main())).to.deep.equal(content(head));
    expect(names(head)).to.deep.equal(['box', 'drain', 'job', 'kept']);
  });

  it('a branch holding a revert merges into main by replay after main moved', async () => {
    const user = await newUser();
    const p = await mergeProject(user);
    const kept = uuid();
    await p.seed([addNode({ id: kept, data: { name: 'kept', description: 'before' } })]);
    const b = await branchOf(p);
    const box = wiredBox();
    await b.apply(box.deltas); // v1
    await b.apply([{ type: 'update_node_data', node_id: kept, after: { description: 'after' } }]); // v2
    await b.apply([{ type: 'delete_node', node_id: box.ids.job }]); // v3
    await revertOk(user, b, 3); // the job, its port and its wire come back
    await revertOk(user, b, 2); // kept's description is 'before' again
    const head = await b.graph();
    // main moves on meanwhile, so the merge replays the branch's batches
    const other = uuid();
    await p.seed([addNode({ id: other, data: { name: 'other' } })]);
    expect((await b.merge()).mode).to.equal('replay');
    const main = await p.main();
    const expected = content(head);
    const mainContent = content(main);
    expect(mainContent.edges).to.deep.equal(expected.edges);
    expect(mainContent.nodes.filter((n: any) => n.id !== other)).to.deep.equal(expected.nodes);
    expect(main.nodes.find((n: any) => n.id === kept).data.description).to.equal('before');
  });
});
