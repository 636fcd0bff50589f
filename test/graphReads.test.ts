/** Full-graph reads (getMainGraph, getBranchGraph) and the last_opened_at they set. */
import { expect } from 'chai';
import { writeGraphStream } from '../services/graph/graphStream';
import { branchView } from '../services/graph/view';
import type { BranchBases } from '../services/graph/view';
import { cypher } from '../shared/neo4j/namedQuery';
import { currentHarness, grant, newUser, uniqueName } from './support/harness';
import { mergeProject } from './support/mergeWorkspace';
import { addEdge, addNode, port, uuid, workspace } from './support/graphBuilders';

describe('full-graph reads', function () {
  // a case's first statements are planned on a cold database (the discarded-branch case
  // meets a write, a full read, a file export and two scoped reads for the first time)
  this.timeout(90_000);
  it('reads main of a new project: empty GraphResponse with the main BranchRef', async () => {
    const alice = await newUser();
    const created = (await alice.api.post('/v1/projects', { name: uniqueName() })).body;
    const res = await alice.api.get(`/v1/graph/${created.project.id}`);
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({
      branch: created.main_branch,
      edges: [],
      nodes: [],
      project_id: created.project.id,
      version: '1.0.0',
    });
    // the answer names its version; no ETag is computed over the body (none is documented)
    expect(res.headers.get('etag')).to.equal(null);
    const listed = await alice.api.get('/v1/projects');
    expect(listed.status).to.equal(200);
    expect(listed.headers.get('etag')).to.equal(null);
  });

  it('sets last_opened_at on a full read', async () => {
    const alice = await newUser();
    const p = (await alice.api.post('/v1/projects', { name: uniqueName() })).body.project;
    expect(p.last_opened_at).to.equal(null);
    await alice.api.get(`/v1/graph/${p.id}`);
    const listed = (await alice.api.get('/v1/projects')).body.projects.find(
      (x: { id: string }) => x.id === p.id,
    );
    expect(listed.last_opened_at).to.be.a('string');
  });

  it('reads a working branch; main is visible to members, working branches only to their owner', async () => {
    const owner = await newUser();
    const viewer = await newUser();
    const created = (await owner.api.post('/v1/projects', { name: uniqueName() })).body;
    await grant(created.project.id, viewer, 'viewer');
    const branch = (
      await owner.api.post(`/v1/projects/${created.project.id}/branches`, { name: 'w' })
    ).body.branch;
    const own = await owner.api.get(`/v1/branches/${branch.id}/graph`);
    expect(own.status).to.equal(200);
    expect(own.body.branch).to.deep.equal({ id: branch.id, version: 0 });
    expect((await viewer.api.get(`/v1/branches/${created.main_branch.id}/graph`)).status).to.equal(
      200,
    );
    expect((await viewer.api.get(`/v1/graph/${created.project.id}`)).status).to.equal(200);
    expect((await viewer.api.get(`/v1/branches/${branch.id}/graph`)).status).to.equal(404);
  });

  it('streams the head and a pinned version in pieces, wires and ports included', async () => {
    const w = await workspace(await newUser());
    // enough nodes that the answer spans several pieces of the stream
    const nodes = Array.from({ length: 400 }, (_, i) => {
      const [i1, o1] = [port(`in${i}`, 'int'), port(`out${i}`, 'int')];
      return { delta: addNode({ data: { name: `n${i}`, inputs: [i1], outputs: [o1] } }), i1, o1 };
    });
    await w.apply(nodes.slice(0, 200).map((n) => n.delta));
    await w.apply(nodes.slice(200).map((n) => n.delta));
    await w.apply(nodes.slice(1).map((n, i) => addEdge(nodes[i].o1.id, n.i1.id)));
    const head = await w.user.api.get(`/v1/branches/${w.branchId}/graph`);
    expect(head.status).to.equal(200);
    expect(head.headers.get('transfer-encoding')).to.equal('chunked');
    expect(JSON.stringify(head.body).length).to.be.greaterThan(128 * 1024);
    // version 2 is pinned, streamed too: its nodes are the head's, without the wires
    const pinned = await w.user.api.get(`/v1/branches/${w.branchId}/graph?version=2`);
    expect(pinned.status).to.equal(200);
    expect(pinned.headers.get('transfer-encoding')).to.equal('chunked');
    expect(head.body.nodes).to.deep.equal(pinned.body.nodes);
    expect(head.body.edges).to.have.length(399);
    expect(pinned.body.edges).to.deep.equal([]);
    expect(head.body.branch).to.deep.equal({ id: w.branchId, version: 3 });
    const ids = head.body.nodes.map((n: { id: string }) => n.id);
    expect(ids).to.deep.equal([...ids].sort());
  });

  it('reads page by page at one version: the pages add up to the answer, over main and the branch, and a batch committed between pages is not in it', async () => {
    const user = await newUser();
    const p = await mergeProject(user);
    const onMain = Array.from({ length: 9 }, (_, i) => {
      const [i1, o1] = [port(`in${i}`, 'int'), port(`out${i}`, 'int')];
      return { delta: addNode({ data: { name: `m${i}`, inputs: [i1], outputs: [o1] } }), i1, o1 };
    });
    await p.seed([
      ...onMain.map((n) => n.delta),
      ...onMain.slice(1).map((n, i) => addEdge(onMain[i].o1.id, n.i1.id)),
    ]);
    const b = await p.fork();
    // the branch removes main's nodes 2 and 5 (their wires with them), changes 7, adds its own
    await b.apply([
      { type: 'delete_node', node_id: onMain[2].delta.node.id },
      { type: 'delete_node', node_id: onMain[5].delta.node.id },
      { type: 'update_node_data', node_id: onMain[7].delta.node.id, after: { name: 'changed' } },
      ...Array.from({ length: 6 }, (_, i) => addNode({ data: { name: `b${i}` } })),
    ]);
    const whole = await user.api.get(`/v1/branches/${b.id}/graph`);
    expect(whole.status).to.equal(200);
    expect(whole.body.nodes).to.have.length(9 - 2 + 6);

    const { service } = currentHarness();
    const row = await service.executor.read<{ branch: BranchBases & { version: number } }>(
      cypher('testBranchBases', 'MATCH (b:Branch {id: $id}) RETURN b {.*} AS branch'),
      { id: b.id },
    );
    const branch = row[0].branch;
    const view = branchView(branch, p.mainId, branch.version);
    let pieces = '';
    const out = {
      async write(piece: string | Uint8Array) {
        pieces += piece.toString();
      },
    };
    // after the first page's transaction, a batch commits: the later pages do not show it
    let pages = 0;
    const executor = new Proxy(service.executor, {
      get(target, property) {
        const value = Reflect.get(target, property, target) as unknown;
        if (property !== 'readTx' || typeof value !== 'function') return value;
        return async (...args: unknown[]) => {
          if (pages++ === 1) await b.apply([addNode({ data: { name: 'later' } })]);
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
    const envelope = { branch: whole.body.branch, project_id: p.projectId, version: 'v' };
    // pages of 2 rows: the wires and the nodes each take several
    await writeGraphStream(executor, view, envelope, out, undefined, 2);
    expect(pages).to.be.greaterThan(8);
    expect((await b.graph()).nodes).to.have.length(9 - 2 + 6 + 1);
    const paged = JSON.parse(pieces);
    expect(paged.edges).to.deep.equal(whole.body.edges);
    expect(paged.nodes).to.deep.equal(whole.body.nodes);
  });

  it('answers 404 for a missing branch', async () => {
    const alice = await newUser();
    const res = await alice.api.get('/v1/branches/00000000-0000-4000-8000-000000000000/graph');
    expect(res.status).to.equal(404);
    expect(res.body.detail.code).to.equal('not_found');
  });

  it('reads a discarded branch as having no graph, before any purge has run', async () => {
    const w = await workspace(await newUser());
    const out = port('out');
    const inp = port('in');
    const a = uuid();
    await w.apply([
      addNode({ id: a, data: { name: 'a', outputs: [out] } }),
      addNode({ data: { name: 'b', inputs: [inp] } }),
      addEdge(out.id, inp.id),
    ]);
    const api = w.user.api;
    const discarded = await api.delete(`/v1/branches/${w.branchId}?expected_version=${w.version}`);
    expect(discarded.status).to.equal(200);
    const graph = await api.get(`/v1/branches/${w.branchId}/graph`);
    expect(graph.status).to.equal(200);
    expect(graph.body.branch).to.deep.equal({ id: w.branchId, version: w.version });
    expect(graph.body.nodes).to.deep.equal([]);
    expect(graph.body.edges).to.deep.equal([]);
    const file = await api.get(`/v1/branches/${w.branchId}/file`);
    expect(file.status).to.equal(200);
    expect(file.body).to.deep.include({ nodes: [], edges: [] });
    for (const path of [`subtree/${a}`, `node/${a}`]) {
      const res = await api.get(`/v1/branches/${w.branchId}/${path}`);
      expect(res.status, path).to.equal(404);
      expect(res.body.detail.code).to.equal('not_found');
    }
    const validate = await api.post(`/v1/branches/${w.branchId}/validate`, { deltas: [] });
    expect(validate.status).to.equal(409);
    expect(validate.body.detail.code).to.equal('branch_not_active');
  });
});
