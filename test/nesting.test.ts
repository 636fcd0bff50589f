/**
 * Containment depth and cycles on the versioned store, where containment is the
 * property join parent_id and an ancestor chain is walked in steps through the view:
 * chains far longer than one step of the walk, up to the nesting limit (64 by
 * default, MAX_NESTING_DEPTH).
 */
import { expect } from 'chai';
import { currentHarness, newUser } from './support/harness';
import { addNode, uuid, workspace, Workspace } from './support/graphBuilders';

/** One batch nesting `depth` boundaries, each the child of the one before; their ids in order. */
async function chain(w: Workspace, depth: number): Promise<string[]> {
  const ids = Array.from({ length: depth }, () => uuid());
  await w.apply(
    ids.map((id, i) =>
      addNode({
        id,
        kind: 'boundary',
        parent_id: i === 0 ? null : ids[i - 1],
        data: { name: 'b' },
      }),
    ),
  );
  return ids;
}

function expectDeltaError(res: any, error: string): void {
  expect(res.status, JSON.stringify(res.body)).to.equal(422);
  expect(res.body.detail.error).to.equal(error);
}

describe('containment depth and cycles through long parent chains', function () {
  // batches of 64 nested nodes and chains walked step by step: slow on a loaded machine
  this.timeout(180_000);

  it('counts the depth of an existing parent up its whole chain', async () => {
    const max = currentHarness().config.limits.maxNestingDepth;
    const w = await workspace(await newUser());
    const ids = await chain(w, max);
    // a child of the deepest node would be nested max + 1 deep
    expectDeltaError(
      await w.post([addNode({ parent_id: ids[max - 1], data: { name: 'leaf' } })]),
      'depth_limit_exceeded',
    );
    // one level up it fits, at exactly the limit
    await w.apply([addNode({ parent_id: ids[max - 2], data: { name: 'leaf' } })]);
  });

  it('refuses a reparent under a far descendant (cycle) and one that nests too deep', async () => {
    const max = currentHarness().config.limits.maxNestingDepth;
    const w = await workspace(await newUser());
    const ids = await chain(w, max - 1);
    const move = (nodeId: string, parentId: string) => ({
      type: 'reparent_node',
      node_id: nodeId,
      parent_id: parentId,
    });
    expectDeltaError(
      await w.post([move(ids[1] as string, ids[max - 3] as string)]),
      'containment_cycle',
    );
    // a two-level subtree: under the node at depth max - 2 it ends at depth max
    const top = uuid();
    const below = uuid();
    await w.apply([
      addNode({ id: top, kind: 'boundary', data: { name: 'top' } }),
      addNode({ id: below, parent_id: top, data: { name: 'below' } }),
    ]);
    expectDeltaError(await w.post([move(top, ids[max - 2] as string)]), 'depth_limit_exceeded');
    await w.apply([move(top, ids[max - 3] as string)]);
    const graph = await w.graph();
    const moved = graph.nodes.find((n: any) => n.id === top);
    expect(moved.parent_id).to.equal(ids[max - 3]);
  });
});
