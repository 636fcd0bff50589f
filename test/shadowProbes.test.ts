/**
 * Only a record of main read in a working branch's view can be shadowed by the branch,
 * so the visibility rule (services/graph/store/visibility.ts visibleRecord) seeks the
 * branch's line for such a record alone. Neo4j runs the rule's shadow test for every
 * record a read finds, before the condition it stands in: keyed on the view's line
 * alone, a read of main sought each record it found a second time, and found it again.
 * Profiled here on the full read's statements (getMainGraph, getBranchGraph), whose
 * ports and wire endpoints are found through the rule: no shadow test finds the record
 * it tests, in a read of main or in a branch's read of its own records. Whether a
 * branch's records do shadow main's is held by the full reads' own tests
 * (graphReads.test.ts).
 */
import { expect } from 'chai';
import { readEdgesPage, readNodesWithPorts } from '../services/graph/store/graphReadQueries';
import type { NamedQuery } from '../shared/neo4j/namedQuery';
import { newUser } from './support/harness';
import { headView } from './support/keptFindings';
import { mergeProject } from './support/mergeWorkspace';
import { addEdge, addNode, port, workspace } from './support/graphBuilders';
import { profiled } from './support/queryPlans';

/** Runs `query` profiled; its rows, and the rows each shadow test's seek found. */
async function shadowSeekRows(
  query: NamedQuery,
  params: Record<string, unknown>,
): Promise<{ rows: number; shadowSeeks: number[] }> {
  const { rows, operators } = await profiled(query, params);
  const seeks = operators.filter(
    (op) => op.operator.startsWith('NodeIndexSeek') && /\bshadow_\w+:/.test(op.operator),
  );
  return { rows, shadowSeeks: seeks.map((op) => op.rows) };
}

/** Three nodes with an input and an output port each, wired in a chain. */
function chain() {
  const nodes = Array.from({ length: 3 }, (_, i) => {
    const [input, output] = [port('in'), port('out')];
    return {
      delta: addNode({ data: { name: `n${i}`, inputs: [input], outputs: [output] } }),
      input,
      output,
    };
  });
  return [
    ...nodes.map((n) => n.delta),
    addEdge(nodes[0].output.id, nodes[1].input.id),
    addEdge(nodes[1].output.id, nodes[2].input.id),
  ];
}

/**
 * Reads the first page of both full-read statements in `view`, which holds the three
 * nodes and two wires of chain(), and expects every shadow test of either plan to find
 * nothing.
 */
async function expectNoRecordInShadowTests(view: unknown): Promise<void> {
  const params = { view, after: '', limit: 100 };
  const nodes = await shadowSeekRows(readNodesWithPorts, params);
  const edges = await shadowSeekRows(readEdgesPage, params);
  expect(nodes.rows).to.equal(3);
  expect(edges.rows).to.equal(2);
  for (const { shadowSeeks } of [nodes, edges]) {
    expect(shadowSeeks.length).to.be.greaterThan(0);
    expect(
      shadowSeeks.every((found) => found === 0),
      String(shadowSeeks),
    ).to.equal(true);
  }
}

describe('the visibility rule tests shadowing only for main records in a branch view (visibleRecord)', function () {
  this.timeout(60_000);

  it('a read of main finds no record in its shadow tests (getMainGraph)', async () => {
    const project = await mergeProject(await newUser());
    await project.seed(chain());
    await expectNoRecordInShadowTests(await headView(project.mainId, project.mainId));
  });

  it("a branch's read of its own records finds none of them in its shadow tests (getBranchGraph)", async () => {
    const ws = await workspace(await newUser());
    await ws.apply(chain());
    await expectNoRecordInShadowTests(await headView(ws.branchId, ws.mainId));
  });
});
