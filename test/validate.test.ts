/** Validate (dry run) and findings. */
import { expect } from 'chai';
import { grant, newUser } from './support/harness';
import { addEdge, addNode, port, uuid, workspace } from './support/graphBuilders';
import { mergeProject } from './support/mergeWorkspace';

describe('validate and findings', () => {
  it('reports the current coherence for an empty or omitted list; valid on an empty graph', async () => {
    const w = await workspace(await newUser());
    for (const body of [{}, { deltas: [] }]) {
      const res = await w.user.api.post(`/v1/branches/${w.branchId}/validate`, body);
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.include({ findings: [], valid: true, project_id: w.projectId });
      expect(res.body.branch).to.deep.equal({ id: w.branchId, version: 0 });
    }
  });

  it('never changes the branch', async () => {
    const w = await workspace(await newUser());
    const res = await w.user.api.post(`/v1/branches/${w.branchId}/validate`, {
      deltas: [addNode({ data: { name: 'x' } })],
    });
    expect(res.status).to.equal(200);
    const g = await w.graph();
    expect(g.nodes).to.deep.equal([]);
    expect(g.branch.version).to.equal(0);
  });

  it('finds unsatisfied_input, dangling_wire, type_mismatch (errors) sorted by severity, code, locator', async () => {
    const w = await workspace(await newUser());
    const [i1, i2] = [port('i1', 'int'), port('i2', 'str')];
    const o = port('o', 'int');
    const [eMismatch, eDangling] = [uuid(), uuid()];
    const res = await w.user.api.post(`/v1/branches/${w.branchId}/validate`, {
      deltas: [
        addNode({ data: { inputs: [i1, i2] } }),
        addNode({ data: { outputs: [o] } }),
        addEdge(o.id, i2.id, eMismatch),
        addEdge(o.id, uuid(), eDangling),
      ],
    });
    expect(res.status).to.equal(200);
    expect(res.body.valid).to.equal(false);
    const findings = res.body.findings.map((f: any) => [f.code, f.locator, f.severity]);
    expect(findings).to.deep.equal([
      ['dangling_wire', eDangling, 'error'],
      ['type_mismatch', eMismatch, 'error'],
      ['unsatisfied_input', i1.id, 'error'],
    ]);
  });

  it('orphan_node is a warning and does not make the graph invalid', async () => {
    const w = await workspace(await newUser());
    const [box, inside, orphan, traced] = [uuid(), uuid(), uuid(), uuid()];
    await w.apply([
      addNode({ id: box, kind: 'boundary', data: { source_decisions: [uuid()] } }),
      addNode({ id: inside, parent_id: box }),
      addNode({ id: orphan }),
      addNode({ id: traced, data: { source_decisions: [uuid()] } }),
    ]);
    const res = await w.user.api.post(`/v1/branches/${w.branchId}/validate`, {});
    expect(res.body.findings).to.deep.equal([
      {
        code: 'orphan_node',
        locator: orphan,
        severity: 'warning',
        message: res.body.findings[0].message,
      },
    ]);
    expect(res.body.valid).to.equal(true);
  });

  it('gives the same accept/reject answer as apply', async () => {
    const w = await workspace(await newUser());
    const id = uuid();
    await w.apply([addNode({ id, data: { name: 'a' } })]);
    const bad = [addNode({ data: { name: 'a' } })];
    const dry = await w.user.api.post(`/v1/branches/${w.branchId}/validate`, { deltas: bad });
    const real = await w.post(bad);
    expect(dry.status).to.equal(422);
    expect(dry.body).to.deep.equal(real.body);
    const missing = [{ type: 'delete_node', node_id: uuid() }];
    const dry404 = await w.user.api.post(`/v1/branches/${w.branchId}/validate`, {
      deltas: missing,
    });
    const real404 = await w.post(missing);
    expect(dry404.status).to.equal(404);
    expect(dry404.body).to.deep.equal(real404.body);
    expect(dry404.body.detail.code).to.equal('node_not_found');
  });

  it('needs no scope, but answers 404 for an invisible branch', async () => {
    const w = await workspace(await newUser());
    const stranger = await newUser({ scopes: [] });
    expect((await stranger.api.post(`/v1/branches/${w.branchId}/validate`, {})).status).to.equal(
      404,
    );
  });

  it('on main (written on a fork of main inside the dry run) answers as a fresh fork of main does, and leaves main as it was', async () => {
    const owner = await newUser();
    const viewer = await newUser();
    const p = await mergeProject(owner);
    await grant(p.projectId, viewer, 'viewer');
    const [box, inner, feeder, fed] = [uuid(), uuid(), uuid(), uuid()];
    const [out, inp] = [port('out', 'int'), port('in', 'int')];
    await p.seed([
      addNode({ id: box, kind: 'boundary', data: { name: 'box' } }),
      addNode({ id: inner, parent_id: box, data: { name: 'inner' } }),
      addNode({ id: feeder, data: { name: 'feeder', outputs: [out] } }),
      addNode({ id: fed, data: { name: 'fed', inputs: [inp] } }),
      addEdge(out.id, inp.id),
    ]);
    const mainBefore = await p.main();
    const fork = await p.fork();
    const batches = [
      [{ type: 'delete_node', node_id: feeder }],
      [
        { type: 'update_node_data', node_id: fed, after: { description: 'changed' } },
        { type: 'reparent_node', node_id: inner, parent_id: null },
        addNode({ data: { inputs: [port('lonely', 'str')] } }),
        { type: 'delete_node', node_id: box },
      ],
      // refused as apply would refuse it
      [{ type: 'delete_node', node_id: uuid() }],
      [],
    ];
    const strip = (body: any) => ({ ...body, branch: undefined });
    const codes: string[][] = [];
    for (const deltas of batches) {
      const onMain = await viewer.api.post(`/v1/branches/${p.mainId}/validate`, { deltas });
      const onFork = await owner.api.post(`/v1/branches/${fork.id}/validate`, { deltas });
      expect(onMain.status, JSON.stringify(onMain.body)).to.equal(onFork.status);
      expect(strip(onMain.body), JSON.stringify(deltas)).to.deep.equal(strip(onFork.body));
      if (onMain.status === 200) {
        expect(onMain.body.branch).to.deep.equal({ id: p.mainId, version: 1 });
        codes.push(onMain.body.findings.map((f: { code: string }) => f.code));
      } else codes.push([`${onMain.status}`]);
    }
    // the feeder's wire goes with it, so its input is left unfed; the lonely input is unfed
    expect(codes).to.deep.equal([['unsatisfied_input'], ['unsatisfied_input'], ['404'], []]);
    expect(await p.main()).to.deep.equal(mainBefore);
  });
});
