/**
 * applyDeltas derives the kept findings of a batch that is one run of additions from the
 * facts its checks read (runFindings.ts), instead of reading back what it wrote. The
 * oracle here is the general recomputation (recomputeFindings) run again over everything
 * the batch wrote: when the derived records are right it finds nothing to change. The
 * listed findings must also agree with the whole computation (expectAgree).
 */
import { expect } from 'chai';
import { recomputeFindings, View } from '../services/graph';
import type { NamedQuery, Params, QueryRunner } from '../shared/neo4j/namedQuery';
import { currentHarness, newUser } from './support/harness';
import { expectAgree, headView } from './support/keptFindings';
import { addEdge, addNode, port, uuid } from './support/graphBuilders';
import { mergeProject } from './support/mergeWorkspace';

/** The statements that write kept findings (recordWrites.ts upsertFindings, removeFindings). */
const FINDING_WRITES = /^(upsert|remove)GFindingStates$/;

/** Ids a batch of add_node/add_edge deltas writes, by label. */
function writtenBy(deltas: any[]) {
  const written = { GNode: new Set<string>(), Port: new Set<string>(), Edge: new Set<string>() };
  for (const d of deltas) {
    if (d.type === 'add_edge') written.Edge.add(d.edge.id);
    if (d.type !== 'add_node') continue;
    written.GNode.add(d.node.id);
    for (const channel of ['inputs', 'outputs', 'config'])
      for (const p of d.node.data[channel] ?? []) written.Port.add(p.id);
  }
  return written;
}

/** Recomputes the findings of what `deltas` wrote at `view` (rolled back) and returns what it would write. */
async function rewritesAfter(view: View, deltas: any[]): Promise<string[]> {
  const { executor } = currentHarness().service;
  return executor.rolledBackTx(async (tx) => {
    const writes: string[] = [];
    const note = (query: NamedQuery, params?: Params) => {
      if (FINDING_WRITES.test(query.name))
        writes.push(`${query.name} ${JSON.stringify(params?.rows ?? params?.ids)}`);
    };
    const watching: QueryRunner = {
      run: (query, params) => (note(query, params), tx.run(query, params)),
      one: (query, params) => (note(query, params), tx.one(query, params)),
      each: (query, params, onRow) => tx.each(query, params, onRow),
    };
    await recomputeFindings(watching, view, writtenBy(deltas), true);
    return writes;
  });
}

describe('applyDeltas: the findings of a run of additions are derived without a read after the write', function () {
  this.timeout(120_000);

  it('keeps exactly the records the general recomputation keeps, on a branch over a main with findings', async () => {
    const user = await newUser();
    const p = await mergeProject(user);
    // main: an input no wire feeds (unsatisfied_input kept on main), an output, a boundary
    const [feed, open, box] = [uuid(), uuid(), uuid()];
    const [openIn, feedOut, strOut] = [port('in', 'int'), port('out', 'int'), port('s', 'str')];
    await p.seed([
      addNode({ id: box, kind: 'boundary', data: { name: 'box' } }),
      addNode({ id: open, parent_id: box, data: { name: 'open', inputs: [openIn] } }),
      addNode({ id: feed, data: { name: 'feed', outputs: [feedOut, strOut] } }),
    ]);
    const b = await p.fork();
    const check = async (label: string, deltas: any[]) => {
      await b.apply(deltas);
      const view = await headView(b.id, p.mainId);
      expect(await rewritesAfter(view, deltas), `${label}: nothing left to rewrite`).to.deep.equal(
        [],
      );
      return expectAgree(view, label);
    };

    // a wire into main's unsatisfied input (its finding goes), a type mismatch into a new
    // node's input, a dangling wire, and a wire named before the port it ends on
    const [n1, n1In, n1In2] = [uuid(), port('a', 'int'), port('b', 'int')];
    const [late, lateIn] = [uuid(), port('late', 'int')];
    const first = await check('wires into main and new inputs', [
      addEdge(feedOut.id, openIn.id),
      addNode({ id: n1, parent_id: box, data: { name: 'n1', inputs: [n1In, n1In2] } }),
      addEdge(strOut.id, n1In.id),
      addEdge(feedOut.id, uuid()),
      addEdge(feedOut.id, lateIn.id),
      addNode({ id: late, data: { name: 'late', inputs: [lateIn] } }),
    ]);
    expect(first.whole.map((f) => f.code)).to.include.members([
      'type_mismatch',
      'dangling_wire',
      'unsatisfied_input',
    ]);
    expect(first.whole.map((f) => f.locator)).not.to.include(openIn.id);

    // provenance: a traced boundary with a child (not an orphan) and a grandchild, a child
    // of an untraced existing boundary (an orphan), a top-level node (an orphan)
    const [traced, child, leaf] = [uuid(), uuid(), uuid()];
    const second = await check('traced and untraced parents', [
      addNode({ id: traced, kind: 'boundary', data: { name: 't', source_decisions: [uuid()] } }),
      addNode({ id: child, kind: 'boundary', parent_id: traced, data: { name: 'c' } }),
      addNode({ id: leaf, parent_id: child, data: { name: 'leaf' } }),
      addNode({ parent_id: box, data: { name: 'boxed' } }),
      addNode({ data: { name: 'top' } }),
    ]);
    const orphans = second.whole.filter((f) => f.code === 'orphan_node').map((f) => f.locator);
    expect(orphans).to.include.members([box, open, feed, n1, late]);
    expect(orphans).not.to.include.members([traced, child, leaf]);

    // a parent the run did not create answers through its kept records: under the traced
    // boundary's child, no orphan; under box, an orphan
    await check('parents from an earlier batch', [
      addNode({ parent_id: child, data: { name: 'deeper', inputs: [port('x', 'str')] } }),
      addNode({ parent_id: box, data: { name: 'boxed2', outputs: [port('y', 'int')] } }),
      addEdge(feedOut.id, n1In2.id),
    ]);

    // a wire committed before its port, then a run that creates the port: the general
    // recomputation reads the old wire (the derivation falls back) and they still agree
    const [pending, wire] = [port('p', 'int'), uuid()];
    await check('a dangling wire', [addEdge(feedOut.id, pending.id, wire)]);
    await check('its port arrives', [addNode({ data: { name: 'arrives', inputs: [pending] } })]);
  });
});
