/** Validate (dry run) and findings. */
import { expect } from 'chai';
import { newUser } from './support/harness';
import { addEdge, addNode, port, uuid, workspace } from './support/graphBuilders';

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
});
