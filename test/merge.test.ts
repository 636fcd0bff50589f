/** Merge into main. */
import { expect } from 'chai';
import { grant, newKeyFor, newUser } from './support/harness';
import { addEdge, addNode, port, uuid } from './support/graphBuilders';
import { content, mergeProject } from './support/mergeWorkspace';

describe('merge into main', function () {
  this.timeout(60_000);
  it('fast-forwards when main has not moved: main becomes the branch graph, positions included', async () => {
    const p = await mergeProject(await newUser());
    const b = await p.fork();
    const [out, inp] = [port('out', 'int'), port('in', 'int')];
    const [x, y] = [uuid(), uuid()];
    await b.apply(
      [
        addNode({ id: x, data: { name: 'x', outputs: [out] } }),
        addNode({ id: y, data: { name: 'y', inputs: [inp] } }),
        addEdge(out.id, inp.id),
      ],
      { positions: { [x]: { x: 10, y: 20 } } },
    );
    const before = await b.graph();
    const body = await b.mergeOk();
    expect(body.mode).to.equal('fast_forward');
    expect(body.main_branch).to.deep.equal({ id: p.mainId, version: 1 });
    expect(body.branch).to.include({ id: b.id, status: 'merged', version: 1 });
    expect(body.branch.merged_at).to.be.a('string');
    expect(body.project_id).to.equal(p.projectId);
    const main = await p.main();
    expect(main.branch).to.deep.equal({ id: p.mainId, version: 1 });
    expect(content(main)).to.deep.equal(content(before));
    expect(main.nodes.find((n: any) => n.id === x).position).to.deep.equal({ x: 10, y: 20 });
  });

  it('fast-forwards deletions, moves, port changes and layout: main equals the branch exactly', async () => {
    const p = await mergeProject(await newUser());
    const [box, n1, n2, n3] = [uuid(), uuid(), uuid(), uuid()];
    const [a, b, c, d] = [port('a'), port('b'), port('c'), port('d')];
    await p.seed([
      addNode({ id: box, kind: 'boundary', data: { name: 'box' } }),
      addNode({ id: n1, parent_id: box, data: { name: 'n1', outputs: [a, b] } }),
      addNode({ id: n2, data: { name: 'n2', inputs: [c, d] } }),
      addEdge(a.id, c.id),
      addEdge(b.id, d.id),
    ]);
    const branch = await p.fork();
    await branch.apply(
      [
        { type: 'update_node_data', node_id: n1, after: { outputs: [{ ...a, name: 'a2' }] } },
        { type: 'reparent_node', node_id: n1, parent_id: null },
        { type: 'update_node_data', node_id: n2, after: { inputs: [d], description: 'kept' } },
        addNode({ id: n3, parent_id: box, data: { name: 'n3' } }),
        addEdge(a.id, d.id),
      ],
      { positions: { [box]: { x: 7, y: 8 } } },
    );
    await branch.apply([{ type: 'delete_node', node_id: n3 }]);
    const expected = await branch.graph();
    expect((await branch.mergeOk()).mode).to.equal('fast_forward');
    expect(content(await p.main())).to.deep.equal(content(expected));
    const subtree = await p.user.api.get(`/v1/branches/${p.mainId}/subtree/${box}?depth=5`);
    expect(subtree.body.nodes).to.deep.equal([]); // containment follows parent_id
  });

  it('replays onto a moved main: two branches forked at one version, merged one after the other', async () => {
    const p = await mergeProject(await newUser());
    const shared = uuid();
    await p.seed([addNode({ id: shared, kind: 'boundary', data: { name: 'app' } })]);
    const a = await p.fork();
    const b = await p.fork();
    const [na, nb] = [uuid(), uuid()];
    await a.apply([addNode({ id: na, parent_id: shared, data: { name: 'a' } })]);
    await b.apply([addNode({ id: nb, parent_id: shared, data: { name: 'b' } })], {
      positions: { [nb]: { x: 5, y: 6 } },
    });
    await b.apply([{ type: 'update_node_data', node_id: nb, after: { description: 'bee' } }]);
    expect((await a.mergeOk()).mode).to.equal('fast_forward');
    const merged = await b.mergeOk();
    expect(merged.mode).to.equal('replay');
    expect(merged.main_branch.version).to.equal(3);
    const main = await p.main();
    const names = main.nodes.map((n: any) => n.data.name).sort();
    expect(names).to.deep.equal(['a', 'app', 'b']);
    const bee = main.nodes.find((n: any) => n.id === nb);
    expect(bee).to.deep.include({ parent_id: shared, position: { x: 5, y: 6 } });
    expect(bee.data.description).to.equal('bee');
  });

  it('records each merge on main’s trail by a bounded summary (kind merge, merged branch, mode, the merged trail’s versions), never the branch’s deltas', async () => {
    const p = await mergeProject(await newUser());
    const b = await p.fork();
    const id = uuid();
    await b.apply([addNode({ id, parent_id: '', data: { name: 'n' } })]);
    await b.apply([{ type: 'update_node_data', node_id: id.toUpperCase(), after: { name: 'm' } }]);
    await b.mergeOk();
    const res = await p.user.api.get(`/v1/branches/${p.mainId}/changes`);
    expect(res.status).to.equal(200);
    expect(res.body.changes).to.have.length(1);
    const [change] = res.body.changes;
    expect(change).to.include({
      version: 1,
      kind: 'merge',
      merged_branch_id: b.id,
      mode: 'fast_forward',
      actor: p.user.userId,
      idempotency_key: null,
    });
    expect(change.deltas).to.deep.equal([]);
    expect(change.merged_trail).to.deep.equal({ changes: 2, from_version: 1, to_version: 2 });
    // the deltas stay on the merged branch's own trail
    const own = await p.user.api.get(`/v1/branches/${b.id}/changes`);
    expect(own.body.changes.map((c: any) => c.deltas[0].type)).to.deep.equal([
      'update_node_data',
      'add_node',
    ]);
    expect(own.body.changes[1].deltas[0].node.parent_id).to.equal(null); // "" normalised
    expect(own.body.changes[0].deltas[0].node_id).to.equal(id); // upper case normalised
  });

  describe('refusals', () => {
    it('409 version_conflict on a stale expected_version, with current_version', async () => {
      const p = await mergeProject(await newUser());
      const b = await p.fork();
      await b.apply([addNode({})]);
      const res = await b.merge(0);
      expect(res.status).to.equal(409);
      expect(res.body.detail).to.include({ code: 'version_conflict', current_version: 1 });
      expect((await p.main()).nodes).to.have.length(0);
    });

    it('409 branch_not_active for a merged or discarded branch; 409 main_not_writable for main', async () => {
      const p = await mergeProject(await newUser());
      const b = await p.fork();
      await b.mergeOk();
      const again = await b.merge();
      expect(again.status).to.equal(409);
      expect(again.body.detail.code).to.equal('branch_not_active');
      // a merged branch refuses rename, discard and writes alike
      const api = p.user.api;
      for (const res of [
        await api.patch(`/v1/branches/${b.id}`, { name: 'renamed' }),
        await api.delete(`/v1/branches/${b.id}?expected_version=0`),
        await api.post(`/v1/branches/${b.id}/deltas`, {
          deltas: [addNode({})],
          expected_version: 0,
        }),
      ]) {
        expect(res.status).to.equal(409);
        expect(res.body.detail.code).to.equal('branch_not_active');
      }
      const d = await p.fork();
      await p.user.api.delete(`/v1/branches/${d.id}?expected_version=0`);
      expect((await d.merge()).body.detail.code).to.equal('branch_not_active');
      const main = await p.user.api.post(`/v1/branches/${p.mainId}/merge`, {
        expected_version: 1,
      });
      expect(main.status).to.equal(409);
      expect(main.body.detail.code).to.equal('main_not_writable');
    });

    it('409 project_archived in an archived project', async () => {
      const p = await mergeProject(await newUser());
      const b = await p.fork();
      await p.user.api.patch(`/v1/projects/${p.projectId}`, { archived: true });
      const res = await b.merge();
      expect(res.status).to.equal(409);
      expect(res.body.detail.code).to.equal('project_archived');
    });

    it('404 for a branch of someone else; 403 without graph:write or without the editor role', async () => {
      const owner = await newUser();
      const p = await mergeProject(owner);
      const b = await p.fork();
      const other = await newUser();
      await grant(p.projectId, other, 'editor');
      const foreign = await other.api.post(`/v1/branches/${b.id}/merge`, { expected_version: 0 });
      expect(foreign.status).to.equal(404);

      const readOnly = await newKeyFor(owner, { scopes: [] });
      const scope = await readOnly.api.post(`/v1/branches/${b.id}/merge`, { expected_version: 0 });
      expect(scope.status).to.equal(403);
      expect(scope.body.detail.code).to.equal('insufficient_scope');

      const editor = await newUser();
      await grant(p.projectId, editor, 'editor');
      const res = await editor.api.post(`/v1/projects/${p.projectId}/branches`, { name: 'e' });
      await grant(p.projectId, editor, 'viewer');
      const role = await editor.api.post(`/v1/branches/${res.body.branch.id}/merge`, {
        expected_version: 0,
      });
      expect(role.status).to.equal(403);
      expect(role.body.detail.code).to.equal('forbidden');
    });

    it('422 (array form) without expected_version', async () => {
      const p = await mergeProject(await newUser());
      const b = await p.fork();
      const res = await p.user.api.post(`/v1/branches/${b.id}/merge`, {});
      expect(res.status).to.equal(422);
      expect(res.body.detail).to.be.an('array');
    });
  });
});
