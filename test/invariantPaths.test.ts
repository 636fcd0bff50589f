/**
 * Each structural invariant that both ways of applying deltas ask (invariants.ts
 * INVARIANTS: a run of additions, checked in memory against the facts one statement
 * read; any other delta, checked against reads of the store) is broken once each way,
 * on the same branch, and both ways refuse with the invariant's code: the two
 * implementations of the facts around one rule cannot disagree unnoticed.
 */
import { expect } from 'chai';
import { INVARIANTS } from '../services/graph/deltas/invariants';
import { currentHarness, newUser } from './support/harness';
import { addEdge, addNode, port, uuid, workspace, Workspace } from './support/graphBuilders';
import { expectInvariantError } from './support/invariantErrors';

/** A branch set up for the case, and a delta breaking the rule each way. */
type Case = (w: Workspace) => Promise<{ addRun: unknown[]; oneByOne: unknown[] }>;

const update = (nodeId: string, after: Record<string, unknown>) => ({
  type: 'update_node_data',
  node_id: nodeId,
  after,
});
const reparent = (nodeId: string, parentId: string) => ({
  type: 'reparent_node',
  node_id: nodeId,
  parent_id: parentId,
});

const CASES: Record<string, Case> = {
  async id_collision(w) {
    const [taken, other] = [uuid(), uuid()];
    const used = port('used');
    await w.apply([addNode({ id: taken, data: { inputs: [used] } }), addNode({ id: other })]);
    return {
      addRun: [addNode({ id: used.id })],
      oneByOne: [update(other, { inputs: [{ ...port('fresh'), id: used.id }] })],
    };
  },
  async invalid_parent(w) {
    const [behavior, mover] = [uuid(), uuid()];
    await w.apply([addNode({ id: behavior }), addNode({ id: mover })]);
    return { addRun: [addNode({ parent_id: behavior })], oneByOne: [reparent(mover, behavior)] };
  },
  async depth_limit_exceeded(w) {
    const max = currentHarness().config.limits.maxNestingDepth;
    const ids = Array.from({ length: max }, () => uuid());
    const mover = uuid();
    await w.apply([
      ...ids.map((id, i) =>
        addNode({ id, kind: 'boundary', parent_id: i === 0 ? null : ids[i - 1] }),
      ),
      addNode({ id: mover }),
    ]);
    const deepest = ids[max - 1] as string;
    return { addRun: [addNode({ parent_id: deepest })], oneByOne: [reparent(mover, deepest)] };
  },
  async duplicate_name(w) {
    const renamed = uuid();
    await w.apply([
      addNode({ data: { name: 'taken' } }),
      addNode({ id: renamed, data: { name: 'b' } }),
    ]);
    return {
      addRun: [addNode({ data: { name: 'taken' } })],
      oneByOne: [update(renamed, { name: 'taken' })],
    };
  },
  async invalid_endpoint(w) {
    // an input port named as a wire's source: by add_edge, and by a port that appears
    // under a wire committed before it
    const [input, later, owner] = [port('in'), uuid(), uuid()];
    await w.apply([
      addNode({ data: { inputs: [input] } }),
      addNode({ id: owner }),
      addEdge(later, null),
    ]);
    return {
      addRun: [addEdge(input.id, null)],
      oneByOne: [update(owner, { inputs: [{ ...port('late'), id: later }] })],
    };
  },
  async forbidden_edge(w) {
    // state to state: by add_edge, and by a state's port that completes a dangling wire
    const [out, inp, later, owner] = [port('o'), port('i'), uuid(), uuid()];
    await w.apply([
      addNode({ kind: 'state', data: { outputs: [out] } }),
      addNode({ kind: 'state', data: { inputs: [inp] } }),
      addNode({ id: owner, kind: 'state' }),
      addEdge(out.id, later),
    ]);
    return {
      addRun: [addEdge(out.id, inp.id)],
      oneByOne: [update(owner, { inputs: [{ ...port('late'), id: later }] })],
    };
  },
};

describe('each invariant both ways of applying deltas ask, broken each way (invariants.ts)', function () {
  // a case of depth_limit_exceeded nests the deepest chain allowed: slow on a loaded machine
  this.timeout(180_000);
  const both = Object.entries(INVARIANTS).filter(([, i]) => i.paths.length === 2);

  it('has a case for every invariant both ways ask', () => {
    expect(both.length).to.be.greaterThan(0);
    expect(both.map(([code]) => code).filter((code) => !CASES[code])).to.deep.equal([]);
  });

  for (const [code, invariant] of both)
    it(`${code} (${invariant.checks}): a run of additions and a one-by-one delta both refuse`, async () => {
      const w = await workspace(await newUser());
      const make = CASES[code];
      if (!make) throw new Error(`no case for ${code}`);
      const { addRun, oneByOne } = await make(w);
      expectInvariantError(
        await w.post(addRun),
        code,
        code === 'id_collision' ? 'regenerate_uuid' : null,
      );
      expectInvariantError(
        await w.post(oneByOne),
        code,
        code === 'id_collision' ? 'regenerate_uuid' : null,
      );
      // the branch is as the set-up left it: neither refusal wrote anything
      const graph = await w.graph();
      expect(graph.branch.version).to.equal(w.version);
    });
});
