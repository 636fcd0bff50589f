/**
 * applyDeltas records a batch that is one run of additions in the statement that takes
 * the branch's lock and reads the run's facts (lockAndPrefetchAddRun), with the findings
 * planned from its deltas and chosen on those facts (runFindingPlan.ts): the batch then
 * costs that statement and the commit, with no recordBatch statement after its checks.
 * These tests hold the kept findings of that way to the whole computation, on each
 * choice the plan leaves to the facts (a parent's kept orphan finding, an existing
 * input's kept unsatisfied_input finding, findings of both kinds on one batch); show
 * that a batch whose wires the plan cannot vouch for is recorded after its checks as
 * before; and that a batch its checks refuse leaves no record, no version and no node.
 */
import { expect } from 'chai';
import { currentHarness, newUser } from './support/harness';
import { expectAgree, headView } from './support/keptFindings';
import { addEdge, addNode, port, uuid, Workspace, workspace } from './support/graphBuilders';

/** How many times the service has run the named statement, from its metrics. */
async function statementsRun(name: string): Promise<number> {
  const res = await currentHarness().anon.get<string>('/metrics');
  expect(res.status).to.equal(200);
  const line = res.body
    .split('\n')
    .find((l) =>
      l.startsWith(`gds_neo4j_query_duration_seconds_count{query="${name}",outcome="ok"}`),
    );
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
}

/** Applies `deltas` and answers how many recordBatch statements that took. */
async function recordStatements(w: Workspace, deltas: unknown[]): Promise<number> {
  const before = await statementsRun('recordBatch');
  await w.apply(deltas);
  return (await statementsRun('recordBatch')) - before;
}

describe('a batch of additions recorded by its first statement (applyDeltas)', function () {
  // the first statements of a run are planned cold: slow on a loaded machine
  this.timeout(120_000);

  it('chooses the planned findings on the facts it reads, as the whole computation finds them', async () => {
    const user = await newUser();
    const w = await workspace(user);
    const [top, traced, src, sink] = [uuid(), uuid(), uuid(), uuid()];
    const [out, into] = [port('out', 'int'), port('in', 'int')];
    await w.apply([
      addNode({ id: top, kind: 'boundary', data: { name: 'top' } }),
      addNode({
        id: traced,
        kind: 'boundary',
        data: { name: 'traced', source_decisions: [uuid()] },
      }),
      addNode({ id: src, data: { name: 'src', outputs: [out] } }),
      addNode({ id: sink, data: { name: 'sink', inputs: [into] } }),
    ]);
    const view = () => headView(w.branchId, w.mainId);
    const before = await expectAgree(await view(), 'before');
    expect(before.whole.map((f) => [f.code, f.locator])).to.deep.include.members([
      ['orphan_node', top],
      ['unsatisfied_input', into.id],
    ]);

    // under an orphan parent and under a traced one, a child of a new node, a wire from an
    // existing output of the same type, and one that satisfies an existing input
    const [a, b, c] = [uuid(), uuid(), uuid()];
    const [aIn, aOut, bIn] = [port('a_in', 'int'), port('a_out', 'int'), port('b_in', 'str')];
    const recorded = await recordStatements(w, [
      addNode({ id: a, parent_id: top, data: { name: 'a', inputs: [aIn], outputs: [aOut] } }),
      addNode({ id: b, parent_id: traced, data: { name: 'b', inputs: [bIn] } }),
      addNode({ id: c, kind: 'boundary', parent_id: top, data: { name: 'c' } }),
      addEdge(out.id, aIn.id),
      addEdge(aOut.id, into.id),
    ]);
    expect(recorded, 'recordBatch statements').to.equal(0);
    const after = await expectAgree(await view(), 'after the batch');
    const found = after.whole.map((f) => [f.code, f.locator]);
    expect(found).to.deep.include.members([
      ['orphan_node', a],
      ['orphan_node', c],
      ['unsatisfied_input', bIn.id],
    ]);
    expect(found).to.not.deep.include(['orphan_node', b]);
    expect(found).to.not.deep.include(['unsatisfied_input', into.id]);
  });

  it('records after the checks a batch whose wires the plan cannot vouch for, with the same findings', async () => {
    const user = await newUser();
    const w = await workspace(user);
    const [src, text] = [uuid(), port('text', 'str')];
    await w.apply([addNode({ id: src, data: { name: 'src', outputs: [text] } })]);
    const view = () => headView(w.branchId, w.mainId);
    // an existing output of another type: the wire is a type_mismatch
    const mismatched = await recordStatements(w, [
      addNode({ data: { name: 'a', inputs: [{ id: uuid(), name: 'i', type: 'int' }] } }),
    ]);
    expect(mismatched, 'no wire: recorded by the first statement').to.equal(0);
    const input = port('in', 'int');
    expect(
      await recordStatements(w, [
        addNode({ data: { name: 'b', inputs: [input] } }),
        addEdge(text.id, input.id),
      ]),
      'a mismatched wire',
    ).to.equal(1);
    const codes = (await expectAgree(await view(), 'after a mismatch')).whole.map((f) => f.code);
    expect(codes).to.include('type_mismatch');
    // a wire to a handle that names no port yet: dangling
    const out = port('out', 'int');
    expect(
      await recordStatements(w, [
        addNode({ data: { name: 'c', outputs: [out] } }),
        addEdge(out.id, uuid()),
      ]),
      'a dangling wire',
    ).to.equal(1);
    const after = await expectAgree(await view(), 'after a dangling wire');
    expect(after.whole.map((f) => f.code)).to.include('dangling_wire');
  });

  it('leaves no record, version or node behind when the checks refuse the batch', async () => {
    const user = await newUser();
    const w = await workspace(user);
    await w.apply([addNode({ data: { name: 'taken' } })]);
    const trail = async () =>
      (await user.api.get(`/v1/branches/${w.branchId}/changes?limit=200`)).body;
    const [trailBefore, graphBefore] = [await trail(), await w.graph()];
    const refused = await w.post([
      addNode({ data: { name: 'fresh' } }),
      addNode({ data: { name: 'taken' } }),
    ]);
    expect(refused.status).to.equal(422);
    expect(refused.body.detail.error).to.equal('duplicate_name');
    expect(await trail()).to.deep.equal(trailBefore);
    expect(await w.graph()).to.deep.equal(graphBefore);
    // the version did not move: the next batch expects the same one
    await w.apply([addNode({ data: { name: 'next' } })]);
    expect(w.version).to.equal(2);
  });
});
