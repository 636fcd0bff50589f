/** Structural invariants of wires and their error codes. */
import { expect } from 'chai';
import { cypher } from '../shared/neo4j/namedQuery';
import { currentHarness, newUser } from './support/harness';
import { addEdge, addNode, port, uuid, workspace, Workspace } from './support/graphBuilders';
import { expectInvariantError as expectError } from './support/invariantErrors';

async function ws(): Promise<Workspace> {
  return workspace(await newUser());
}

// ---------------------------------------------------------------------------------
// TEST FIXTURE ONLY: writes to Neo4j directly through the harness executor, to reach
// records the API no longer writes: port records without their node's kind, as ports
// were stored before they carried it. Never use it for anything the API can do.
// ---------------------------------------------------------------------------------
const testForgetNodeKind = cypher(
  'testForgetNodeKind',
  `MATCH (p:Port {branch_id: $branchId}) WHERE p.id IN $ids
   REMOVE p.node_kind
   RETURN count(p) AS ports`,
);

/** Removes `node_kind` from the branch's records of ports `ids` (fixture). */
async function forgetNodeKind(branchId: string, ids: string[]): Promise<void> {
  const [row] = await currentHarness().service.executor.write<{ ports: number }>(
    testForgetNodeKind,
    { branchId, ids },
  );
  if (row?.ports !== ids.length) throw new Error(`fixture: ports ${ids} not all found`);
}

describe('structural invariants of wires', () => {
  it('invalid_endpoint: an input as source, an output as target, a config port either way', async () => {
    const w = await ws();
    const [i, o, c] = [port('i'), port('o'), port('c')];
    await w.apply([addNode({ data: { inputs: [i], outputs: [o], config: [c] } })]);
    expectError(await w.post([addEdge(i.id, null)]), 'invalid_endpoint');
    expectError(await w.post([addEdge(null, o.id)]), 'invalid_endpoint');
    expectError(await w.post([addEdge(c.id, null)]), 'invalid_endpoint');
    expectError(await w.post([addEdge(null, c.id)]), 'invalid_endpoint');
  });

  it('checks a wire end against the port the branch holds when a later delta of the batch reuses its id', async () => {
    const w = await ws();
    const i = port('i');
    await w.apply([addNode({ data: { inputs: [i] } })]);
    // the wire comes first, so it is the first to break: its source names an input
    // port on the branch, although the node after it would add a port of that id
    const res = await w.post([
      addEdge(i.id, null),
      addNode({ data: { outputs: [{ ...port('o'), id: i.id }] } }),
    ]);
    expectError(res, 'invalid_endpoint');
    expect(res.body.detail.delta_index).to.equal(0);
  });

  it('forbidden_edge: state-state, io-io, state-io, and a state with a non-behavior', async () => {
    const w = await ws();
    const s1 = { out: port(), in: port() };
    const s2 = { out: port(), in: port() };
    const ioOut = port();
    const ioIn = port();
    const bIn = port();
    const boundaryIn = port();
    await w.apply([
      addNode({ kind: 'state', data: { inputs: [s1.in], outputs: [s1.out] } }),
      addNode({ kind: 'state', data: { inputs: [s2.in], outputs: [s2.out] } }),
      addNode({ kind: 'io', data: { outputs: [ioOut] } }),
      addNode({ kind: 'io', data: { inputs: [ioIn] } }),
      addNode({ data: { inputs: [bIn] } }),
      addNode({ kind: 'boundary', data: { inputs: [boundaryIn] } }),
    ]);
    expectError(await w.post([addEdge(s1.out.id, s2.in.id)]), 'forbidden_edge');
    expectError(await w.post([addEdge(ioOut.id, ioIn.id)]), 'forbidden_edge');
    expectError(await w.post([addEdge(s1.out.id, ioIn.id)]), 'forbidden_edge');
    expectError(await w.post([addEdge(s1.out.id, boundaryIn.id)]), 'forbidden_edge');
    await w.apply([addEdge(s1.out.id, bIn.id), addEdge(ioOut.id, bIn.id)]); // read and io source
  });

  it('forbidden_edge holds for ports stored without their node kind: their owners are looked up', async () => {
    // a port record carries its node's kind, so a wire's check needs no lookup of the
    // node; records written before ports carried it must still be judged by their owner
    const w = await ws();
    const s1 = { out: port(), in: port() };
    const s2In = port();
    const bIn = port();
    await w.apply([
      addNode({ kind: 'state', data: { inputs: [s1.in], outputs: [s1.out] } }),
      addNode({ kind: 'state', data: { inputs: [s2In] } }),
      addNode({ data: { inputs: [bIn] } }),
    ]);
    await forgetNodeKind(w.branchId, [s1.out.id, s2In.id, bIn.id]);
    expectError(await w.post([addEdge(s1.out.id, s2In.id)]), 'forbidden_edge');
    await w.apply([addEdge(s1.out.id, bIn.id)]);
    const graph = await w.graph();
    expect(graph.edges.map((e: any) => [e.source_handle, e.target_handle])).to.deep.equal([
      [s1.out.id, bIn.id],
    ]);
    // a wire already on a new port: its other end is judged by its owner the same way
    const ghost = uuid();
    await w.apply([addEdge(s1.out.id, ghost)]);
    const completes = await w.post([
      addNode({ kind: 'state', data: { inputs: [{ id: ghost, name: 'g' }] } }),
    ]);
    expectError(completes, 'forbidden_edge');
  });

  it('checks a dangling wire again when its port appears: in the same batch, later, or by update', async () => {
    const w = await ws();
    const stateOut = port('s');
    const otherIn = port('t');
    const wire = uuid();
    // the wire first, then the ports it names, in one batch: state -> state is forbidden
    const sameBatch = await w.post([
      addEdge(stateOut.id, otherIn.id, wire),
      addNode({ kind: 'state', data: { outputs: [stateOut] } }),
      addNode({ kind: 'state', data: { inputs: [otherIn] } }),
    ]);
    expectError(sameBatch, 'forbidden_edge');
    expect(sameBatch.body.detail).to.deep.include({ delta_index: 2, entity_id: wire });
    // a dangling wire committed on its own, then an input port appears under its source handle
    const ghost = uuid();
    await w.apply([addEdge(ghost, null, wire)]);
    const asInput = await w.post([addNode({ data: { inputs: [{ id: ghost, name: 'x' }] } })]);
    expectError(asInput, 'invalid_endpoint');
    expect(asInput.body.detail).to.deep.include({
      delta_index: 0,
      delta_type: 'add_node',
      field: 'deltas[0].node.data.inputs',
      entity_id: wire,
    });
    // the same through update_node_data (a port list that gains the port)
    const host = uuid();
    await w.apply([addNode({ id: host, data: { name: 'host' } })]);
    const byUpdate = await w.post([
      { type: 'update_node_data', node_id: host, after: { config: [{ id: ghost, name: 'c' }] } },
    ]);
    expectError(byUpdate, 'invalid_endpoint');
    expect(byUpdate.body.detail.field).to.equal('deltas[0].after.config');
    const before = await w.graph();
    // as an output port the wire is fine, and no longer dangles
    await w.apply([addNode({ data: { outputs: [{ id: ghost, name: 'o' }] } })]);
    const after = await w.graph();
    expect(after.branch.version).to.equal(before.branch.version + 1);
    expect(after.edges.find((e: any) => e.id === wire).source).to.be.a('string');
  });

  it('commits a dangling handle and derives source/target as null', async () => {
    const w = await ws();
    const o = port();
    const owner = uuid();
    const e = uuid();
    const ghost = uuid();
    await w.apply([addNode({ id: owner, data: { outputs: [o] } }), addEdge(o.id, ghost, e)]);
    const edge = (await w.graph()).edges[0];
    expect(edge).to.deep.equal({
      id: e,
      source: owner,
      source_handle: o.id,
      target: null,
      target_handle: ghost,
    });
  });

  it('delete_edge removes a wire; a missing edge answers 404', async () => {
    const w = await ws();
    const e = uuid();
    await w.apply([addEdge(null, null, e)]);
    await w.apply([{ type: 'delete_edge', edge_id: e }]);
    expect((await w.graph()).edges).to.deep.equal([]);
    const res = await w.post([{ type: 'delete_edge', edge_id: e }]);
    expect(res.status).to.equal(404);
  });
});
