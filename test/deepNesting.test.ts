/**
 * Scoped reads on a graph nested deeper than one statement walks (a read walks a few
 * levels up a chain or down below a boundary in its statement and finishes longer
 * walks in further round trips at the same view): chains, paths, search paths and a
 * boundary's perimeter wires come out whole, at the head and at an earlier version.
 */
import { expect } from 'chai';
import { addEdge, addNode, port, uuid } from './support/graphBuilders';
import { newUser } from './support/harness';
import { mergeProject, MergeProject } from './support/mergeWorkspace';

/** More levels than a statement walks in one go (CHAIN_STEPS), twice over. */
const LEVELS = 19;

describe('scoped reads on deeply nested graphs', function () {
  this.timeout(240_000);
  let p: MergeProject;
  const chain = Array.from({ length: LEVELS }, () => uuid());
  const names = chain.map((_, i) => `level${i}`);
  const outside = uuid();
  const wire = uuid();
  const out = port('out');
  const inp = port('in');
  const deepest = chain[LEVELS - 1]!;
  const pathOf = (depth: number) => names.slice(0, depth + 1).join('.');

  before(async () => {
    p = await mergeProject(await newUser());
    await p.seed([
      ...chain.map((id, i) =>
        addNode({
          id,
          kind: i === LEVELS - 1 ? 'behavior' : 'boundary',
          parent_id: i === 0 ? null : chain[i - 1],
          data: { name: names[i], ...(i === LEVELS - 1 ? { outputs: [out] } : {}) },
        }),
      ),
      addNode({ id: outside, data: { name: 'outside', inputs: [inp] } }),
      addEdge(out.id, inp.id, wire),
    ]);
    // main's next version renames the top: the pinned reads below still see the old name
    await p.seed([{ type: 'update_node_data', node_id: chain[0], after: { name: 'renamed' } }]);
  });

  it('gives the subtree root and its nodes their whole paths', async () => {
    const root = chain[LEVELS - 3]!;
    const res = await p.user.api.get(`/v1/branches/${p.mainId}/subtree/${root}?depth=2&version=1`);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.paths).to.deep.equal({
      [root]: pathOf(LEVELS - 3),
      [chain[LEVELS - 2]!]: pathOf(LEVELS - 2),
      [deepest]: pathOf(LEVELS - 1),
    });
    const head = await p.user.api.get(`/v1/branches/${p.mainId}/subtree/${root}?depth=1`);
    expect(head.body.paths[root]).to.equal(['renamed', ...names.slice(1, LEVELS - 2)].join('.'));
  });

  it('gives the neighborhood and its neighbors their whole paths', async () => {
    const res = await p.user.api.get(`/v1/branches/${p.mainId}/node/${outside}?version=1`);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.neighbors.map((n: any) => n.id)).to.deep.equal([deepest]);
    expect(res.body.paths).to.deep.equal({ [outside]: 'outside', [deepest]: pathOf(LEVELS - 1) });
  });

  it('finds the perimeter wires of a boundary from its deepest descendants', async () => {
    const res = await p.user.api.get(`/v1/graph/${p.projectId}/boundary/${chain[0]}?version=1`);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.children.map((c: any) => c.id)).to.deep.equal([chain[1]]);
    expect(res.body.edges.map((e: any) => e.id)).to.deep.equal([wire]);
    const inner = await p.user.api.get(`/v1/graph/${p.projectId}/boundary/${chain[2]}`);
    expect(inner.body.edges.map((e: any) => e.id)).to.deep.equal([wire]);
    expect(inner.body.paths[chain[2]!]).to.equal(['renamed', ...names.slice(1, 3)].join('.'));
  });

  it('gives a search match the ids of all its ancestors', async () => {
    const res = await p.user.api.get(
      `/v1/graph/${p.projectId}/nodes/search?q=level${LEVELS - 1}&version=1`,
    );
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.nodes).to.have.length(1);
    expect(res.body.nodes[0]).to.deep.include({ id: deepest, path: chain.slice(0, LEVELS - 1) });
  });
});
