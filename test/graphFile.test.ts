/** The graph file: export and import round trips, earlier versions, older schemas. */
import { expect } from 'chai';
import { newUser, TestUser, uniqueName } from './support/harness';
import { addNode, uuid } from './support/graphBuilders';
import { content, mergeProject } from './support/mergeWorkspace';
import { richGraph } from './support/richGraph';

async function importFile(user: TestUser, file: unknown) {
  const res = await user.api.post('/v1/projects/import', file);
  expect(res.status, JSON.stringify(res.body)).to.equal(201);
  return res.body;
}

async function mainOf(user: TestUser, projectId: string) {
  const res = await user.api.get(`/v1/graph/${projectId}`);
  expect(res.status).to.equal(200);
  return res.body;
}

describe('graph file', function () {
  this.timeout(60_000);
  it('round trip: export -> import gives the same graph (positions, aliases and order included)', async () => {
    const user = await newUser();
    const p = await mergeProject(user);
    const b = await p.fork();
    const { deltas, ids } = richGraph();
    // the worker is listed before its parent: apply parents first by hand
    await b.apply([deltas[1], deltas[0], ...deltas.slice(2)], {
      positions: { [ids.worker]: { x: 1.5, y: -2 }, [ids.app]: { x: 100, y: 200 } },
    });
    const source = await b.graph();
    const exported = await user.api.get(`/v1/branches/${b.id}/file`);
    expect(exported.status).to.equal(200);
    const file = exported.body;
    expect(file).to.have.keys('schema_version', 'project_name', 'nodes', 'edges');
    expect(file.schema_version).to.equal(6);
    const order = file.nodes.map((n: any) => n.id);
    expect(order.indexOf(ids.app)).to.be.lessThan(order.indexOf(ids.worker)); // parents first
    const worker = file.nodes.find((n: any) => n.id === ids.worker);
    expect(worker.data.aliases).to.deep.equal(['w', 'wk']);
    expect(worker.position).to.deep.equal({ x: 1.5, y: -2 });
    expect(file.nodes.find((n: any) => n.id === ids.sink).data).to.not.have.property('config');

    const other = await newUser();
    const imported = await importFile(other, file);
    expect(imported.project.name).to.equal(file.project_name);
    expect(imported.project.graph_schema_version).to.equal(6);
    expect(imported.main_branch.version).to.equal(0);
    const main = await mainOf(other, imported.project.id);
    expect(content(main)).to.deep.equal(content(source));
    const again = await other.api.get(`/v1/branches/${imported.main_branch.id}/file`);
    expect(again.body).to.deep.equal(file); // aliases survive too
  });

  it('exports main, and refuses an invisible branch with 404', async () => {
    const user = await newUser();
    const p = await mergeProject(user);
    await p.seed([addNode({ data: { name: 'n' } })]);
    const res = await user.api.get(`/v1/branches/${p.mainId}/file`);
    expect(res.status).to.equal(200);
    expect(res.body.nodes.map((n: any) => n.data.name)).to.deep.equal(['n']);
    const stranger = await newUser();
    expect((await stranger.api.get(`/v1/branches/${p.mainId}/file`)).status).to.equal(404);
  });

  it('exports a branch as it was at an earlier version; a version not readable is 404', async () => {
    const user = await newUser();
    const p = await mergeProject(user);
    await p.seed([addNode({ data: { name: 'base' } })]);
    const b = await p.fork();
    await b.apply([addNode({ data: { name: 'first' } })]);
    await b.apply([addNode({ data: { name: 'second' } })]);
    const names = (file: any) => file.nodes.map((n: any) => n.data.name).sort();
    const at = (v: number) => user.api.get(`/v1/branches/${b.id}/file?version=${v}`);
    expect(names((await at(0)).body)).to.deep.equal(['base']);
    expect(names((await at(1)).body)).to.deep.equal(['base', 'first']);
    const head = await user.api.get(`/v1/branches/${b.id}/file`);
    expect(names(head.body)).to.deep.equal(['base', 'first', 'second']);
    const later = await at(3);
    expect(later.status).to.equal(404);
    expect(later.body.detail).to.deep.include({ code: 'version_not_found', oldest: 0, newest: 2 });
    const mainAt0 = await user.api.get(`/v1/branches/${p.mainId}/file?version=0`);
    expect(mainAt0.body.nodes).to.deep.equal([]);
  });

  it('reads a hand-written schema 5 file (camelCase, io nodes) and upgrades it', async () => {
    const user = await newUser();
    const [box, job, sink, o, i, e] = [uuid(), uuid(), uuid(), uuid(), uuid(), uuid()];
    const file = {
      schemaVersion: 5,
      projectName: uniqueName('v5'),
      nodes: [
        {
          id: job,
          kind: 'behavior',
          parentId: box,
          data: {
            name: 'job',
            isTestNode: true,
            isExternal: true,
            externalKind: 'queue',
            documentationUrl: 'https://example.invalid/job',
            outputs: [{ id: o, name: 'out', type: 'bytes', contractName: 'Out' }],
          },
          position: { x: 3, y: 4 },
        },
        {
          id: box,
          kind: 'boundary',
          parentId: null,
          data: { name: 'box', userKind: 'module', pathPrefix: 'lib/box' },
        },
        {
          id: sink,
          kind: 'io',
          data: { name: 'sink', inputs: [{ id: i, name: 'in', type: 'bytes' }] },
        },
      ],
      edges: [{ id: e, sourceHandle: o, targetHandle: i }],
    };
    const imported = await importFile(user, file);
    expect(imported.project.name).to.equal(file.projectName);
    const main = await mainOf(user, imported.project.id);
    const node = (id: string) => main.nodes.find((n: any) => n.id === id);
    expect(node(job)).to.deep.include({ parent_id: box, position: { x: 3, y: 4 } });
    expect(node(job).data).to.include({
      is_test_node: true,
      is_external: true,
      external_kind: 'queue',
      documentation_url: 'https://example.invalid/job',
    });
    expect(node(job).data.outputs[0]).to.include({ id: o, contract_name: 'Out' });
    expect(node(box).data).to.include({ user_kind: 'module', path_prefix: 'lib/box' });
    expect(node(sink).kind).to.equal('io');
    expect(main.edges).to.deep.equal([
      { id: e, source: job, source_handle: o, target: sink, target_handle: i },
    ]);
  });

  it('reads a schema 4 file (state nodes, no io) and a schema 3 file (no state, no io)', async () => {
    const user = await newUser();
    const [st, reader, r, ri] = [uuid(), uuid(), uuid(), uuid()];
    const v4 = await importFile(user, {
      schemaVersion: 4,
      projectName: uniqueName('v4'),
      nodes: [
        {
          id: st,
          kind: 'state',
          data: { name: 'cache', userKind: 'lru', outputs: [{ id: r, name: 'r', type: 't' }] },
        },
        { id: reader, data: { name: 'reader', inputs: [{ id: ri, name: 'x', type: 't' }] } },
      ],
      edges: [{ id: uuid(), sourceHandle: r, targetHandle: ri }],
    });
    const m4 = await mainOf(user, v4.project.id);
    expect(m4.nodes.find((n: any) => n.id === st)).to.deep.include({ kind: 'state' });
    expect(m4.nodes.find((n: any) => n.id === st).data.user_kind).to.equal('lru');
    expect(m4.edges[0]).to.include({ source: st, target: reader });

    const [outer, inner, leaf] = [uuid(), uuid(), uuid()];
    const v3 = await importFile(user, {
      schemaVersion: 3,
      projectName: uniqueName('v3'),
      nodes: [
        { id: leaf, parentId: inner, data: { name: 'leaf', description: 'deepest' } },
        { id: inner, kind: 'boundary', parentId: outer, data: { name: 'inner' } },
        { id: outer, kind: 'boundary', data: { name: 'outer', parent_id: 'ignored' } },
      ],
      edges: [],
    });
    const m3 = await mainOf(user, v3.project.id);
    const parents = Object.fromEntries(m3.nodes.map((n: any) => [n.id, n.parent_id]));
    expect(parents).to.deep.equal({ [outer]: null, [inner]: outer, [leaf]: inner });
    expect(m3.nodes.find((n: any) => n.id === leaf).kind).to.equal('behavior');
  });
});
