/** Structural invariants and their error codes (wires: wireInvariants.test.ts). */
import { expect } from 'chai';
import { newUser } from './support/harness';
import { addEdge, addNode, port, uuid, workspace, Workspace } from './support/graphBuilders';
import { expectInvariantError as expectError } from './support/invariantErrors';

async function ws(): Promise<Workspace> {
  return workspace(await newUser());
}

describe('structural invariants', () => {
  it('id_collision (regenerate_uuid) for a reused node, port or edge id', async () => {
    const w = await ws();
    const id = uuid();
    const p = port();
    await w.apply([addNode({ id, data: { outputs: [p] } })]);
    const again = await w.post([addNode({ id })]);
    expectError(again, 'id_collision', 'regenerate_uuid');
    expect(again.body.detail.entity_id).to.equal(id);
    expectError(
      await w.post([addNode({ data: { inputs: [{ ...p, name: 'other' }] } })]),
      'id_collision',
      'regenerate_uuid',
    );
    expectError(await w.post([addEdge(null, null, id)]), 'id_collision', 'regenerate_uuid');
  });

  it('id_collision only for ids the branch sees: not for one another branch uses, nor one it deleted', async function () {
    // the statements of a delete and a re-add may be planned cold here: slow on a loaded machine
    this.timeout(120_000);
    // ids are looked up on an index of every line's records; the records of lines
    // outside the view, and records the view no longer sees, must not count as use
    const w = await ws();
    const other = await w.user.api.post(`/v1/projects/${w.projectId}/branches`, {
      name: 'other',
    });
    expect(other.status).to.equal(201);
    const [id, p] = [uuid(), port()];
    const onOther = await w.user.api.post(`/v1/branches/${other.body.branch.id}/deltas`, {
      deltas: [addNode({ id, data: { name: 'theirs', outputs: [p] } })],
      expected_version: 0,
    });
    expect(onOther.status, JSON.stringify(onOther.body)).to.equal(200);
    await w.apply([addNode({ id, data: { name: 'ours', outputs: [p] } })]);
    expectError(await w.post([addNode({ id })]), 'id_collision', 'regenerate_uuid');
    await w.apply([{ type: 'delete_node', node_id: id }]);
    await w.apply([addNode({ id, data: { name: 'again', outputs: [p] } })]);
    const nodes = (await w.graph()).nodes.filter((n: { id: string }) => n.id === id);
    expect(nodes.map((n: { data: { name: string } }) => n.data.name)).to.deep.equal(['again']);
  });

  it('id_collision for one port id on two channels of a new node', async () => {
    const w = await ws();
    const shared = uuid();
    expectError(
      await w.post([
        addNode({
          data: { inputs: [{ id: shared, name: 'a' }], outputs: [{ id: shared, name: 'b' }] },
        }),
      ]),
      'id_collision',
      'regenerate_uuid',
    );
  });

  describe('field matrix: field_not_allowed with drop_field', () => {
    const cases: [string, Record<string, unknown>, string][] = [
      [
        'path_prefix on a behavior',
        { kind: 'behavior', data: { path_prefix: 'src/' } },
        'path_prefix',
      ],
      ['language on a state', { kind: 'state', data: { language: 'go' } }, 'language'],
      [
        'user_kind on an io',
        { kind: 'io', data: { user_kind: 'x', outputs: [port()] } },
        'user_kind',
      ],
      ['config ports on a state', { kind: 'state', data: { config: [port()] } }, 'config'],
      [
        'verifications on an io',
        {
          kind: 'io',
          data: { outputs: [port()], verifications: [{ id: uuid(), author: 'user', text: 't' }] },
        },
        'verifications',
      ],
      [
        'is_external on an interface',
        { kind: 'interface', data: { is_external: true } },
        'is_external',
      ],
      [
        'external_kind on an internal behavior',
        { kind: 'behavior', data: { external_kind: 'http' } },
        'external_kind',
      ],
      [
        'protocol on an external boundary',
        { kind: 'boundary', data: { is_external: true, protocol: 'grpc' } },
        'protocol',
      ],
      [
        'path_prefix on an interface',
        { kind: 'interface', data: { path_prefix: 'x' } },
        'path_prefix',
      ],
    ];
    for (const [label, node, field] of cases) {
      it(`refuses ${label}`, async () => {
        const w = await ws();
        const res = await w.post([addNode(node)]);
        expectError(res, 'field_not_allowed', 'drop_field');
        expect(res.body.detail.field).to.equal(`deltas[0].node.data.${field}`);
      });
    }

    it('accepts what the matrix allows', async () => {
      const w = await ws();
      await w.apply([
        addNode({
          kind: 'boundary',
          data: {
            user_kind: 'pkg',
            path_prefix: 'src/',
            language: 'go',
            config: [port()],
            is_external: true,
          },
        }),
        addNode({
          kind: 'state',
          data: { user_kind: 'cache', inputs: [port()], outputs: [port()] },
        }),
        addNode({
          kind: 'behavior',
          data: {
            is_external: true,
            external_kind: 'http',
            protocol: 'rest',
            verifications: [{ id: uuid(), author: 'agent', text: 'ok', type: null }],
          },
        }),
        addNode({
          kind: 'interface',
          data: { config: [port()], verifications: [{ id: uuid(), author: 'user', text: 'api' }] },
        }),
      ]);
      const kinds = (await w.graph()).nodes.map((n: any) => n.kind).sort();
      expect(kinds).to.deep.equal(['behavior', 'boundary', 'interface', 'state']);
    });

    it('requires external_kind on an external behavior (validation_error)', async () => {
      const w = await ws();
      expectError(await w.post([addNode({ data: { is_external: true } })]), 'validation_error');
    });

    it('checks the matrix on update too', async () => {
      const w = await ws();
      const id = uuid();
      await w.apply([addNode({ id, data: { is_external: true, external_kind: 'http' } })]);
      const res = await w.post([
        { type: 'update_node_data', node_id: id, after: { is_external: false } },
      ]);
      expectError(res, 'field_not_allowed', 'drop_field');
    });
  });

  it('io_port_shape: exactly one port, on one side', async () => {
    const w = await ws();
    expectError(
      await w.post([addNode({ kind: 'io', data: { inputs: [port()], outputs: [port()] } })]),
      'io_port_shape',
    );
    expectError(await w.post([addNode({ kind: 'io', data: {} })]), 'io_port_shape');
    expectError(
      await w.post([addNode({ kind: 'io', data: { outputs: [port(), port()] } })]),
      'io_port_shape',
    );
    await w.apply([
      addNode({ kind: 'io', data: { outputs: [port()] } }),
      addNode({ kind: 'io', data: { inputs: [port()] } }),
    ]);
  });

  it('kind_immutable on update and when data.kind disagrees on add', async () => {
    const w = await ws();
    const id = uuid();
    await w.apply([addNode({ id })]);
    expectError(
      await w.post([{ type: 'update_node_data', node_id: id, after: { kind: 'state' } }]),
      'kind_immutable',
    );
    expectError(
      await w.post([addNode({ kind: 'behavior', data: { kind: 'state' } })]),
      'kind_immutable',
    );
    await w.apply([
      {
        type: 'update_node_data',
        node_id: id,
        after: { kind: 'behavior', name: 'same kind echoed' },
      },
    ]);
  });

  it('source_decisions: accepted on add, immutable on update unless equal (drop_field)', async () => {
    const w = await ws();
    const id = uuid();
    const d1 = uuid();
    const d2 = uuid();
    await w.apply([addNode({ id, data: { source_decisions: [d1, d2] } })]);
    expectError(
      await w.post([{ type: 'update_node_data', node_id: id, after: { source_decisions: [d1] } }]),
      'source_decisions_immutable',
      'drop_field',
    );
    await w.apply([
      { type: 'update_node_data', node_id: id, after: { source_decisions: [d2, d1], name: 'ok' } },
    ]);
    expect((await w.graph()).nodes[0].data.source_decisions).to.have.members([d1, d2]);
  });

  it('duplicate_name among siblings; empty names exempt; other scopes free', async () => {
    const w = await ws();
    const b = uuid();
    await w.apply([
      addNode({ id: b, kind: 'boundary', data: { name: 'box' } }),
      addNode({ data: { name: 'a' } }),
      addNode({}),
      addNode({}),
    ]);
    expectError(await w.post([addNode({ data: { name: 'a' } })]), 'duplicate_name');
    expectError(
      await w.post([addNode({ data: { name: 'A' } }), addNode({ data: { name: 'A' } })]),
      'duplicate_name',
    );
    await w.apply([
      addNode({ parent_id: b, data: { name: 'a' } }),
      addNode({ data: { name: 'A' } }),
    ]); // case-sensitive, other scope
  });

  it('duplicate_port_name on one node (across channels); empty port names exempt', async () => {
    const w = await ws();
    expectError(
      await w.post([addNode({ data: { inputs: [port('x')], outputs: [port('x')] } })]),
      'duplicate_port_name',
    );
    await w.apply([addNode({ data: { inputs: [{ id: uuid() }, { id: uuid() }] } })]);
  });

  it('invalid_parent: missing parent, self, and behavior/state/io parents', async () => {
    const w = await ws();
    const behavior = uuid();
    const state = uuid();
    await w.apply([addNode({ id: behavior }), addNode({ id: state, kind: 'state' })]);
    expectError(await w.post([addNode({ parent_id: uuid() })]), 'invalid_parent');
    expectError(await w.post([addNode({ parent_id: behavior })]), 'invalid_parent');
    expectError(await w.post([addNode({ parent_id: state })]), 'invalid_parent');
    const self = uuid();
    expectError(await w.post([addNode({ id: self, parent_id: self })]), 'invalid_parent');
    expectError(
      await w.post([{ type: 'reparent_node', node_id: behavior, parent_id: behavior }]),
      'invalid_parent',
    );
  });

  it('containment_cycle on a reparent under a descendant', async () => {
    const w = await ws();
    const [a, b, c] = [uuid(), uuid(), uuid()];
    await w.apply([
      addNode({ id: a, kind: 'boundary' }),
      addNode({ id: b, kind: 'boundary', parent_id: a }),
      addNode({ id: c, kind: 'boundary', parent_id: b }),
    ]);
    expectError(
      await w.post([{ type: 'reparent_node', node_id: a, parent_id: c }]),
      'containment_cycle',
    );
    expectError(
      await w.post([{ type: 'update_node_data', node_id: a, after: { parent_id: b } }]),
      'containment_cycle',
    );
    await w.apply([{ type: 'reparent_node', node_id: c, parent_id: null }]);
    expect((await w.graph()).nodes.find((n: any) => n.id === c).parent_id).to.equal(null);
  });

  it('reparent checks the name in the new scope', async () => {
    const w = await ws();
    const [box, n1] = [uuid(), uuid()];
    await w.apply([
      addNode({ id: box, kind: 'boundary' }),
      addNode({ parent_id: box, data: { name: 'x' } }),
      addNode({ id: n1, data: { name: 'x' } }),
    ]);
    expectError(
      await w.post([{ type: 'reparent_node', node_id: n1, parent_id: box }]),
      'duplicate_name',
    );
  });

  describe('node_not_found (404) and deletes', () => {
    for (const type of ['delete_node', 'update_node_data', 'reparent_node', 'flatten_boundary']) {
      it(`${type} on a missing node answers 404 node_not_found with node_id`, async () => {
        const w = await ws();
        const missing = uuid();
        const res = await w.post([{ type, node_id: missing, after: {}, parent_id: null }]);
        expect(res.status).to.equal(404);
        expect(res.body.detail).to.include({ code: 'node_not_found', node_id: missing });
      });
    }

    it('delete_node removes the whole subtree and every wire touching it', async () => {
      const w = await ws();
      const [box, inner, outside] = [uuid(), uuid(), uuid()];
      const o = port();
      const i = port();
      await w.apply([
        addNode({ id: box, kind: 'boundary' }),
        addNode({ id: inner, parent_id: box, data: { outputs: [o] } }),
        addNode({ id: outside, data: { inputs: [i] } }),
        addEdge(o.id, i.id),
      ]);
      await w.apply([{ type: 'delete_node', node_id: box }]);
      const g = await w.graph();
      expect(g.nodes.map((n: any) => n.id)).to.deep.equal([outside]);
      expect(g.edges).to.deep.equal([]);
    });

    it("flatten_boundary promotes children and drops the boundary's ports and wires", async () => {
      const w = await ws();
      const [outer, box, child] = [uuid(), uuid(), uuid()];
      const bp = port();
      const ci = port();
      await w.apply([
        addNode({ id: outer, kind: 'boundary' }),
        addNode({ id: box, kind: 'boundary', parent_id: outer, data: { outputs: [bp] } }),
        addNode({ id: child, parent_id: box, data: { name: 'c', inputs: [ci] } }),
        addEdge(bp.id, ci.id),
      ]);
      await w.apply([{ type: 'flatten_boundary', node_id: box }]);
      const g = await w.graph();
      expect(g.nodes.map((n: any) => n.id).sort()).to.deep.equal([outer, child].sort());
      expect(g.nodes.find((n: any) => n.id === child).parent_id).to.equal(outer);
      expect(g.edges).to.deep.equal([]);
    });

    it('flatten_boundary: not_a_boundary, and duplicate_name when a promoted child collides', async () => {
      const w = await ws();
      const [box, plain] = [uuid(), uuid()];
      await w.apply([
        addNode({ id: box, kind: 'boundary' }),
        addNode({ parent_id: box, data: { name: 'x' } }),
        addNode({ id: plain, data: { name: 'x' } }),
      ]);
      expectError(await w.post([{ type: 'flatten_boundary', node_id: plain }]), 'not_a_boundary');
      expectError(await w.post([{ type: 'flatten_boundary', node_id: box }]), 'duplicate_name');
    });
  });

  describe('port-list replacement', () => {
    it('updates listed ports by id, deletes omitted ones with their wires, leaves other channels', async () => {
      const w = await ws();
      const node = uuid();
      const [a, b, out] = [port('a', 'int'), port('b', 'int'), port('o')];
      const src = port('s', 'int');
      await w.apply([
        addNode({ id: node, data: { inputs: [a, b], outputs: [out] } }),
        addNode({ data: { outputs: [src] } }),
        addEdge(src.id, b.id),
      ]);
      await w.apply([
        { type: 'update_node_data', node_id: node, after: { inputs: [{ id: a.id, type: 'str' }] } },
      ]);
      const g = await w.graph();
      const n = g.nodes.find((x: any) => x.id === node);
      expect(n.data.inputs).to.deep.equal([
        { id: a.id, name: 'a', type: 'str', description: '', external: false, contract_name: null },
      ]);
      expect(n.data.outputs.map((p: any) => p.id)).to.deep.equal([out.id]);
      expect(g.edges).to.deep.equal([]);
    });

    it('refuses an entry without an id (validation_error)', async () => {
      const w = await ws();
      const node = uuid();
      await w.apply([addNode({ id: node })]);
      const res = await w.post([
        { type: 'update_node_data', node_id: node, after: { inputs: [{ name: 'x' }] } },
      ]);
      expectError(res, 'validation_error');
      expect(res.body.detail.field).to.equal('deltas[0].after.inputs[0].id');
    });

    it('refuses a new port whose id is used elsewhere (id_collision)', async () => {
      const w = await ws();
      const [n1, n2] = [uuid(), uuid()];
      const p = port();
      await w.apply([addNode({ id: n1, data: { inputs: [p] } }), addNode({ id: n2 })]);
      expectError(
        await w.post([{ type: 'update_node_data', node_id: n2, after: { inputs: [p] } }]),
        'id_collision',
        'regenerate_uuid',
      );
    });
  });
});
