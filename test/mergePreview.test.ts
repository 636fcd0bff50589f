/** Merge preview, branch diff and the change trail. */
import { expect } from 'chai';
import { grant, newKeyFor, newUser } from './support/harness';
import { addEdge, addNode, port, uuid } from './support/graphBuilders';
import { mergeProject } from './support/mergeWorkspace';

/** What changed between two graph reads, counted like MergeCounts (positions are layout). */
function countChanges(before: any, after: any) {
  const entities = (graph: any) => {
    const nodes = new Map<string, string>();
    const ports = new Map<string, string>();
    for (const n of graph.nodes) {
      const { inputs, outputs, config, ...data } = n.data;
      nodes.set(n.id, JSON.stringify([n.kind, n.parent_id, data]));
      for (const [channel, list] of Object.entries({ inputs, outputs, config }))
        for (const p of list as any[]) ports.set(p.id, JSON.stringify([n.id, channel, p]));
    }
    const edges = new Map<string, string>(
      graph.edges.map((e: any) => [e.id, JSON.stringify([e.source_handle, e.target_handle])]),
    );
    return { nodes, ports, edges };
  };
  const [a, b] = [entities(before), entities(after)];
  const count = (x: Map<string, string>, y: Map<string, string>) => ({
    added: [...y.keys()].filter((k) => !x.has(k)).length,
    changed: [...y.keys()].filter((k) => x.has(k) && x.get(k) !== y.get(k)).length,
    removed: [...x.keys()].filter((k) => !y.has(k)).length,
  });
  return {
    nodes: count(a.nodes, b.nodes),
    ports: count(a.ports, b.ports),
    edges: count(a.edges, b.edges),
  };
}

const key = (f: any) => `${f.code}:${f.locator}`;

describe('merge preview', function () {
  this.timeout(60_000);

  it('fast_forward: counts and the findings the merge adds and clears; the merge that follows matches', async () => {
    const p = await mergeProject(await newUser());
    const [i1, o, xi] = [port('i1'), port('o'), port('xi')];
    await p.seed([addNode({ data: { name: 'm1', inputs: [i1] } })]);
    const b = await p.fork();
    await b.apply([
      addNode({ data: { name: 'src', outputs: [o] } }),
      addNode({ data: { name: 'x', inputs: [xi] } }),
      addEdge(o.id, i1.id),
    ]);
    const mainBefore = await p.main();
    const preview = await b.preview();
    expect(preview).to.deep.include({ mode: 'fast_forward', can_merge: true, conflicts: [] });
    expect(preview.branch).to.deep.equal({ id: b.id, version: 1 });
    expect(preview.main_branch).to.deep.equal({ id: p.mainId, version: 1 });
    expect(preview.counts).to.deep.equal({
      nodes: { added: 2, changed: 0, removed: 0 },
      ports: { added: 2, changed: 0, removed: 0 },
      edges: { added: 1, changed: 0, removed: 0 },
    });
    expect(preview.findings_added.map(key)).to.deep.equal([`unsatisfied_input:${xi.id}`]);
    expect(preview.findings_cleared.map(key)).to.deep.equal([`unsatisfied_input:${i1.id}`]);
    expect(await p.main()).to.deep.equal(mainBefore); // a preview changes nothing

    await b.mergeOk();
    expect(countChanges(mainBefore, await p.main())).to.deep.equal(preview.counts);
    const findings = await p.user.api.post(`/v1/branches/${p.mainId}/validate`, { deltas: [] });
    expect(findings.body.findings.map(key)).to.deep.equal([`unsatisfied_input:${xi.id}`]);
  });

  it('replay: changed and removed entities are counted, and the merge that follows matches', async () => {
    const p = await mergeProject(await newUser());
    const [keep, drop, other] = [uuid(), uuid(), uuid()];
    const [out, inp] = [port('out', 'int'), port('in', 'str')];
    await p.seed([
      addNode({ id: keep, data: { name: 'keep', outputs: [out] } }),
      addNode({ id: drop, data: { name: 'drop', inputs: [inp] } }),
      addEdge(out.id, inp.id),
    ]);
    const a = await p.fork();
    const b = await p.fork();
    await a.apply([addNode({ id: other, data: { name: 'other' } })]);
    await a.mergeOk();
    await b.apply([
      { type: 'update_node_data', node_id: keep, after: { description: 'kept' } },
      { type: 'delete_node', node_id: drop },
    ]);
    const mainBefore = await p.main();
    const preview = await b.preview();
    expect(preview).to.deep.include({ mode: 'replay', can_merge: true });
    expect(preview.counts).to.deep.equal({
      nodes: { added: 0, changed: 1, removed: 1 },
      ports: { added: 0, changed: 0, removed: 1 },
      edges: { added: 0, changed: 0, removed: 1 },
    });
    expect(preview.findings_cleared.map(key)).to.deep.equal([
      `type_mismatch:${(await p.main()).edges[0].id}`,
    ]);
    expect(preview.findings_added).to.deep.equal([]);
    expect((await b.mergeOk()).mode).to.equal('replay');
    const mainAfter = await p.main();
    expect(countChanges(mainBefore, mainAfter)).to.deep.equal(preview.counts);
    expect(mainAfter.nodes.map((n: any) => n.data.name).sort()).to.deep.equal(['keep', 'other']);
  });

  it('with conflicts: can_merge false, zero counts and no findings', async () => {
    const p = await mergeProject(await newUser());
    const n = uuid();
    await p.seed([addNode({ id: n, data: { name: 'n' } })]);
    const [a, b] = [await p.fork(), await p.fork()];
    await a.apply([{ type: 'update_node_data', node_id: n, after: { name: 'a' } }]);
    await b.apply([
      { type: 'update_node_data', node_id: n, after: { name: 'b', inputs: [port()] } },
    ]);
    await a.mergeOk();
    const preview = await b.preview();
    expect(preview.can_merge).to.equal(false);
    expect(preview.conflicts.map((c: any) => c.reason)).to.deep.equal(['modified_on_both']);
    expect(preview.counts.nodes).to.deep.equal({ added: 0, changed: 0, removed: 0 });
    expect(preview.findings_added).to.deep.equal([]);
    expect(preview.findings_cleared).to.deep.equal([]);
  });

  it('can_merge is false where the merge itself would be refused: archived project, no graph:write, viewer', async () => {
    const owner = await newUser();
    const p = await mergeProject(owner);
    const b = await p.fork();
    await b.apply([addNode({ data: { name: 'x' } })]);
    expect((await b.preview()).can_merge).to.equal(true);

    const readOnly = await newKeyFor(owner, { scopes: [] });
    const scopeless = await readOnly.api.get(`/v1/branches/${b.id}/merge-preview`);
    expect(scopeless.status).to.equal(200);
    expect(scopeless.body).to.deep.include({ can_merge: false, conflicts: [] });
    expect(scopeless.body.counts.nodes.added).to.equal(1); // the graph is described either way

    const archived = await owner.api.patch(`/v1/projects/${p.projectId}`, { archived: true });
    expect(archived.status).to.equal(200);
    const preview = await b.preview();
    expect(preview.can_merge).to.equal(false);
    const merge = await owner.api.post(`/v1/branches/${b.id}/merge`, { expected_version: 1 });
    expect(merge.status).to.equal(409);
    expect(merge.body.detail.code).to.equal('project_archived');
    await owner.api.patch(`/v1/projects/${p.projectId}`, { archived: false });

    const editor = await newUser();
    await grant(p.projectId, editor, 'editor');
    const fork = await editor.api.post(`/v1/projects/${p.projectId}/branches`, { name: 'e' });
    await grant(p.projectId, editor, 'viewer');
    const demoted = await editor.api.get(`/v1/branches/${fork.body.branch.id}/merge-preview`);
    expect(demoted.body.can_merge).to.equal(false);
  });

  it('409 main_not_writable for main and branch_not_active after the merge; 404 for others', async () => {
    const p = await mergeProject(await newUser());
    const b = await p.fork();
    const main = await p.user.api.get(`/v1/branches/${p.mainId}/merge-preview`);
    expect(main.status).to.equal(409);
    expect(main.body.detail.code).to.equal('main_not_writable');
    const stranger = await newUser();
    expect((await stranger.api.get(`/v1/branches/${b.id}/merge-preview`)).status).to.equal(404);
    await b.mergeOk();
    const done = await p.user.api.get(`/v1/branches/${b.id}/merge-preview`);
    expect(done.status).to.equal(409);
    expect(done.body.detail.code).to.equal('branch_not_active');
  });
});

describe('branch diff', function () {
  this.timeout(60_000);

  it('reports added, removed and changed nodes, ports and edges with the changed fields', async () => {
    const p = await mergeProject(await newUser());
    const [n1, n2, n3, box] = [uuid(), uuid(), uuid(), uuid()];
    const [pa, pb, pc] = [port('a'), port('b'), port('c')];
    const wire = uuid();
    await p.seed([
      addNode({ id: box, kind: 'boundary', data: { name: 'box' } }),
      addNode({ id: n1, data: { name: 'one', outputs: [pa] } }),
      addNode({ id: n2, data: { name: 'two', inputs: [pb] } }),
      addEdge(pa.id, pb.id, wire),
    ]);
    const b = await p.fork();
    await b.apply(
      [
        { type: 'update_node_data', node_id: n1, after: { name: 'uno', description: 'first' } },
        { type: 'reparent_node', node_id: n1, parent_id: box },
        { type: 'delete_node', node_id: n2 },
        addNode({ id: n3, data: { name: 'three', outputs: [pc] } }),
        { type: 'update_node_data', node_id: n3, after: { outputs: [{ ...pc, type: 'str' }] } },
      ],
      { positions: { [box]: { x: 9, y: 9 } } }, // layout: never a change
    );
    const diff = await b.diff();
    expect(diff.branch).to.deep.equal({ id: b.id, version: 1 });
    expect(diff.main_branch).to.deep.equal({ id: p.mainId, version: 1 });
    expect(diff.nodes).to.deep.equal({
      added: [n3],
      removed: [n2],
      changed: [{ id: n1, fields: ['description', 'name', 'parent_id'] }],
    });
    expect(diff.ports).to.deep.equal({ added: [pc.id], removed: [pb.id], changed: [] });
    expect(diff.edges).to.deep.equal({ added: [], removed: [wire], changed: [] });
  });

  it('names the changed fields of a port and of a wire; 404 for a missing or foreign branch', async () => {
    const p = await mergeProject(await newUser());
    const [pa, pb, pc] = [port('a'), port('b'), port('c')];
    const wire = uuid();
    await p.seed([
      addNode({ data: { name: 'src', outputs: [pa, pc] } }),
      addNode({ data: { name: 'dst', inputs: [pb] } }),
      addEdge(pa.id, pb.id, wire),
    ]);
    const b = await p.fork();
    const graph = await b.graph();
    const dst = graph.nodes.find((n: any) => n.data.name === 'dst');
    await b.apply([
      {
        type: 'update_node_data',
        node_id: dst.id,
        after: { inputs: [{ ...pb, type: 'str', description: 'now text' }] },
      },
      { type: 'delete_edge', edge_id: wire },
      addEdge(pc.id, pb.id, wire), // the same wire id, rewired from another port
    ]);
    const diff = await b.diff();
    expect(diff.ports.changed).to.deep.equal([{ id: pb.id, fields: ['description', 'type'] }]);
    expect(diff.edges.changed).to.deep.equal([{ id: wire, fields: ['source_handle'] }]);
    expect(diff.nodes.changed).to.deep.equal([]);
    expect((await p.user.api.get(`/v1/branches/${uuid()}/diff`)).status).to.equal(404);
    const other = await newUser();
    expect((await other.api.get(`/v1/branches/${b.id}/diff`)).status).to.equal(404);
  });

  it('shows what main gained since the fork as removed; 409 for main', async () => {
    const p = await mergeProject(await newUser());
    const [a, b] = [await p.fork(), await p.fork()];
    const n = uuid();
    await a.apply([addNode({ id: n })]);
    await a.mergeOk();
    expect((await b.diff()).nodes).to.deep.equal({ added: [], removed: [n], changed: [] });
    const main = await p.user.api.get(`/v1/branches/${p.mainId}/diff`);
    expect(main.status).to.equal(409);
    expect(main.body.detail.code).to.equal('main_not_writable');
  });
});
