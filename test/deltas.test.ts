/** Delta apply. */
import { expect } from 'chai';
import { grant, newKeyFor, newUser } from './support/harness';
import { addEdge, addNode, port, uuid, workspace, Workspace } from './support/graphBuilders';

async function ws(): Promise<Workspace> {
  return workspace(await newUser());
}

function expectDeltaError(res: any, error: string, field?: string, hint: string | null = null) {
  expect(res.status, JSON.stringify(res.body)).to.equal(422);
  expect(Object.keys(res.body.detail).sort()).to.deep.equal(
    ['delta_index', 'delta_type', 'entity_id', 'error', 'field', 'message', 'recovery_hint'].sort(),
  );
  expect(res.body.detail.error).to.equal(error);
  if (field !== undefined) expect(res.body.detail.field).to.equal(field);
  expect(res.body.detail.recovery_hint).to.equal(hint);
}

describe('delta apply', () => {
  describe('batches and versions', () => {
    it('applies add_node and advances the version by one; the read shape is WireNode', async () => {
      const w = await ws();
      const id = uuid();
      const input = port('in', 'int');
      const body = await w.apply([
        addNode({ id, data: { name: 'worker', aliases: ['w'], inputs: [input] } }),
      ]);
      expect(body).to.deep.include({ applied: true, positions_applied: null });
      expect(body.branch).to.deep.equal({ id: w.branchId, version: 1 });
      const graph = await w.graph();
      expect(graph.nodes).to.have.length(1);
      const node = graph.nodes[0];
      expect(node).to.deep.include({
        id,
        kind: 'behavior',
        parent_id: null,
        position: { x: 0, y: 0 },
      });
      expect(node.data).to.not.have.property('aliases');
      expect(node.data).to.not.have.property('kind');
      expect(node.data).to.include({
        name: 'worker',
        description: '',
        status: 'idle',
        is_external: false,
        is_test_node: false,
      });
      expect(node.data.inputs).to.deep.equal([
        { ...input, description: '', external: false, contract_name: null },
      ]);
      expect(node.data).to.have.property('external_kind', null); // behavior carries the external scalars
      expect(node.data).to.not.have.property('path_prefix');
    });

    it('answers an empty batch with applied false and no version bump', async () => {
      const w = await ws();
      const res = await w.post([]);
      expect(res.status).to.equal(200);
      expect(res.body.applied).to.equal(false);
      expect(res.body.branch.version).to.equal(0);
    });

    it('requires expected_version when deltas is not empty (422 validation_error)', async () => {
      const w = await ws();
      const res = await w.user.api.post(`/v1/branches/${w.branchId}/deltas`, {
        deltas: [addNode({})],
      });
      expectDeltaError(res, 'validation_error', 'expected_version');
    });

    it('refuses a stale expected_version with 409 version_conflict and current_version', async () => {
      const w = await ws();
      await w.apply([addNode({})]);
      const res = await w.post([addNode({})], { expected_version: 0 });
      expect(res.status).to.equal(409);
      expect(res.body.detail).to.include({ code: 'version_conflict', current_version: 1 });
    });

    it('refuses main (409 main_not_writable) and a discarded branch (409 branch_not_active)', async () => {
      const w = await ws();
      const main = await w.user.api.post(`/v1/branches/${w.mainId}/deltas`, {
        deltas: [addNode({})],
        expected_version: 0,
      });
      expect(main.status).to.equal(409);
      expect(main.body.detail.code).to.equal('main_not_writable');
      await w.user.api.delete(`/v1/branches/${w.branchId}?expected_version=0`);
      const gone = await w.post([addNode({})]);
      expect(gone.status).to.equal(409);
      expect(gone.body.detail.code).to.equal('branch_not_active');
    });

    it('refuses writes in an archived project (409 project_archived)', async () => {
      const w = await ws();
      await w.user.api.patch(`/v1/projects/${w.projectId}`, { archived: true });
      const res = await w.post([addNode({})]);
      expect(res.status).to.equal(409);
      expect(res.body.detail.code).to.equal('project_archived');
    });

    it('is all or nothing: a failing last delta leaves branch and version untouched', async () => {
      const w = await ws();
      await w.apply([addNode({ data: { name: 'keep' } })]);
      const before = await w.graph();
      const res = await w.post([
        addNode({ data: { name: 'a' } }),
        addNode({ data: { name: 'b' } }),
        { type: 'delete_node', node_id: uuid() },
      ]);
      expect(res.status).to.equal(404);
      const after = await w.graph();
      expect(after).to.deep.equal(before);
      expect(after.branch.version).to.equal(1);
      // the refused batch's leading additions were written by its first statement, at the
      // version it would have published: the next batch publishes that version, and only
      // its own node appears
      await w.apply([addNode({ data: { name: 'next' } })]);
      const next = await w.graph();
      expect(next.branch.version).to.equal(2);
      expect(next.nodes.map((n: { data: { name: string } }) => n.data.name).sort()).to.deep.equal([
        'keep',
        'next',
      ]);
    });

    it('lets exactly one of 8 concurrent writers on one version win', async () => {
      const w = await ws();
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) => w.post([addNode({ data: { name: `n${i}` } })])),
      );
      expect(results.filter((r) => r.status === 200)).to.have.length(1);
      const conflicts = results.filter((r) => r.status === 409);
      expect(conflicts).to.have.length(7);
      for (const c of conflicts)
        expect(c.body.detail).to.include({ code: 'version_conflict', current_version: 1 });
      expect((await w.graph()).nodes).to.have.length(1);
    });

    it('answers a body that is not JSON with the per-delta envelope on apply and validate', async () => {
      const w = await ws();
      for (const route of ['deltas', 'validate']) {
        const res = await w.user.api.post(`/v1/branches/${w.branchId}/${route}`, undefined, {
          raw: '{"deltas": [',
        });
        expectDeltaError(res, 'validation_error', 'body');
        expect(res.body.detail.delta_index).to.equal(null);
      }
    });

    it('refuses more than 1000 deltas (422 validation_error, field deltas)', async () => {
      const w = await ws();
      const res = await w.post(
        Array.from({ length: 1001 }, () => ({ type: 'delete_edge', edge_id: uuid() })),
      );
      expectDeltaError(res, 'validation_error', 'deltas');
    });

    it("hides other users' branches (404)", async () => {
      const w = await ws();
      const stranger = await newUser();
      const res = await stranger.api.post(`/v1/branches/${w.branchId}/deltas`, {
        deltas: [],
        expected_version: 0,
      });
      expect(res.status).to.equal(404);
      expect(res.body).to.deep.equal({
        detail: { code: 'not_found', message: 'branch not found' },
      });
      // a batch that starts with additions takes the lock and reads what they need in one
      // statement: the same 404 for a stranger and for a missing branch, and nothing written
      for (const branchId of [w.branchId, uuid()]) {
        const adding = await stranger.api.post(`/v1/branches/${branchId}/deltas`, {
          deltas: [addNode({})],
          expected_version: 0,
        });
        expect(adding.status, branchId).to.equal(404);
        expect(adding.body, branchId).to.deep.equal(res.body);
      }
      expect((await w.graph()).branch.version).to.equal(0);
    });

    it('needs graph:write (403 insufficient_scope) and an editor role (403 forbidden)', async () => {
      const w = await ws();
      await w.apply([addNode({})]);
      const readOnly = await newKeyFor(w.user, { scopes: [] });
      const scope = await readOnly.api.post(`/v1/branches/${w.branchId}/deltas`, {
        deltas: [addNode({})],
        expected_version: w.version,
      });
      expect(scope.status).to.equal(403);
      expect(scope.body.detail.code).to.equal('insufficient_scope');

      // an editor forks, then is demoted to viewer: the branch stays theirs but is read-only
      const editor = await newUser();
      await grant(w.projectId, editor, 'editor');
      const fork = await editor.api.post(`/v1/projects/${w.projectId}/branches`, { name: 'e' });
      expect(fork.status).to.equal(201);
      await grant(w.projectId, editor, 'viewer');
      const role = await editor.api.post(`/v1/branches/${fork.body.branch.id}/deltas`, {
        deltas: [addNode({})],
        expected_version: 0,
      });
      expect(role.status).to.equal(403);
      expect(role.body.detail.code).to.equal('forbidden');
      const graph = await editor.api.get(`/v1/branches/${fork.body.branch.id}/graph`);
      expect(graph.body.branch.version).to.equal(0);
    });
  });

  describe('positions', () => {
    it('writes positions without a version bump, ignores unknown ids, counts what it wrote', async () => {
      const w = await ws();
      const id = uuid();
      await w.apply([addNode({ id })]);
      const res = await w.post([], {
        positions: { [id]: { x: 10.5, y: -3 }, [uuid()]: { x: 1, y: 1 } },
      });
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.include({ applied: false, positions_applied: 1 });
      expect(res.body.branch.version).to.equal(1);
      expect((await w.graph()).nodes[0].position).to.deep.equal({ x: 10.5, y: -3 });
    });

    it('positions a node added in the same batch', async () => {
      const w = await ws();
      const id = uuid();
      const body = await w.apply([addNode({ id })], { positions: { [id]: { x: 5, y: 6 } } });
      expect(body.positions_applied).to.equal(1);
      expect((await w.graph()).nodes[0].position).to.deep.equal({ x: 5, y: 6 });
    });

    it('refuses a position without numbers (422 validation_error)', async () => {
      const w = await ws();
      expectDeltaError(
        await w.post([], { positions: { a: { x: 'left', y: 0 } } }),
        'validation_error',
        'positions.a',
      );
    });
  });

  describe('malformed deltas', () => {
    it('unknown_delta_type for a missing or unknown type', async () => {
      const w = await ws();
      expectDeltaError(await w.post([{ node_id: uuid() }]), 'unknown_delta_type', 'deltas[0].type');
      const res = await w.post([addNode({}), { type: 'rename_node' }]);
      expectDeltaError(res, 'unknown_delta_type', 'deltas[1].type');
      expect(res.body.detail.delta_index).to.equal(1);
      expect(res.body.detail.delta_type).to.equal('rename_node');
    });

    it('malformed_delta_field for a delta that is not an object', async () => {
      const w = await ws();
      expectDeltaError(await w.post(['add_node']), 'malformed_delta_field', 'deltas[0]');
    });

    it('validation_error with the field path for a malformed field', async () => {
      const w = await ws();
      const res = await w.post([addNode({ id: 'nope' })]);
      expectDeltaError(res, 'validation_error', 'deltas[0].node.id');
      expect(res.body.detail.delta_type).to.equal('add_node');
    });

    it('strict booleans: "true" is not true', async () => {
      const w = await ws();
      expectDeltaError(
        await w.post([addNode({ data: { is_test_node: 'true' } })]),
        'validation_error',
        'deltas[0].node.data.is_test_node',
      );
    });

    it('rejects an unknown status, a bad documentation_url, 51 aliases and a 501-character contract_name', async () => {
      const w = await ws();
      expectDeltaError(
        await w.post([addNode({ data: { status: 'done' } })]),
        'validation_error',
        'deltas[0].node.data.status',
      );
      expectDeltaError(
        await w.post([addNode({ data: { documentation_url: 'ftp://x' } })]),
        'validation_error',
        'deltas[0].node.data.documentation_url',
      );
      expectDeltaError(
        await w.post([
          addNode({ data: { aliases: Array.from({ length: 51 }, (_, i) => `a${i}`) } }),
        ]),
        'validation_error',
        'deltas[0].node.data.aliases',
      );
      expectDeltaError(
        await w.post([
          addNode({ data: { inputs: [{ ...port(), contract_name: 'c'.repeat(501) }] } }),
        ]),
        'validation_error',
        'deltas[0].node.data.inputs[0].contract_name',
      );
      const ok = await w.post([
        addNode({
          data: {
            status: 'running',
            aliases: Array.from({ length: 50 }, (_, i) => `a${i}`),
            documentation_url: 'https://docs',
          },
        }),
      ]);
      expect(ok.status).to.equal(200);
    });

    it('rejects reparent_node without a parent_id key', async () => {
      const w = await ws();
      const id = uuid();
      await w.apply([addNode({ id })]);
      expectDeltaError(
        await w.post([{ type: 'reparent_node', node_id: id }]),
        'validation_error',
        'deltas[0].parent_id',
      );
    });

    it('drops unknown keys silently', async () => {
      const w = await ws();
      const res = await w.post([{ ...addNode({ data: { name: 'x', colour: 'red' } }), extra: 1 }]);
      expect(res.status).to.equal(200);
    });
  });

  describe('wire conventions', () => {
    it('coerces empty strings to null for the nullable fields and handles', async () => {
      const w = await ws();
      const id = uuid();
      const e = uuid();
      await w.apply([
        addNode({
          id,
          kind: 'boundary',
          parent_id: '',
          data: { user_kind: '', path_prefix: '', language: '', documentation_url: '' },
        }),
        addEdge('', '', e),
      ]);
      const g = await w.graph();
      expect(g.nodes[0].parent_id).to.equal(null);
      expect(g.nodes[0].data).to.include({
        user_kind: null,
        path_prefix: null,
        language: null,
        documentation_url: null,
      });
      expect(g.edges[0]).to.deep.equal({
        id: e,
        source: null,
        source_handle: null,
        target: null,
        target_handle: null,
      });
    });

    it('update_node_data: an omitted field stays, a null field becomes null', async () => {
      const w = await ws();
      const id = uuid();
      await w.apply([
        addNode({
          id,
          kind: 'boundary',
          data: { name: 'svc', description: 'd', user_kind: 'module' },
        }),
      ]);
      await w.apply([{ type: 'update_node_data', node_id: id, after: { description: 'new' } }]);
      let data = (await w.graph()).nodes[0].data;
      expect(data).to.include({ name: 'svc', description: 'new', user_kind: 'module' });
      await w.apply([{ type: 'update_node_data', node_id: id, after: { user_kind: null } }]);
      data = (await w.graph()).nodes[0].data;
      expect(data.user_kind).to.equal(null);
      expect(data.name).to.equal('svc');
    });
  });
});
