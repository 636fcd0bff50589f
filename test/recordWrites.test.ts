/**
 * The copy-on-write primitives of the versioned store and the visibility rule, run
 * directly against Neo4j on lines of made-up ids (no project is needed: a line is only
 * a branch id on the records). What a view sees is read back with the visibility
 * fragments every graph query composes.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { cypher } from '../shared/neo4j/namedQuery';
import {
  createGraph,
  placeNodes,
  removeStates,
  upsertStates,
} from '../services/graph/recordWrites';
import { allStates, optionalStateOf } from '../services/graph/store/visibility';
import { branchView, mainView, View, writeViewOf } from '../services/graph/view';
import { currentHarness } from './support/harness';

const readAll = cypher(
  'testReadAllNodes',
  `${allStates('s', 'GNode')}
   RETURN s.id AS id, s.name AS name, s.x AS x ORDER BY id`,
);
const readOne = cypher(
  'testReadOneNode',
  `${optionalStateOf('s', 'GNode', '$id')}
   RETURN s.name AS name`,
);

async function names(view: View): Promise<string[]> {
  const rows = await currentHarness().service.executor.read<{ id: string; name: string }>(readAll, {
    view,
  });
  return rows.map((r) => `${r.id}=${r.name}`);
}

describe('versioned store: copy-on-write primitives and visibility', function () {
  // the first statements of a run are planned cold: slow on a loaded machine
  this.timeout(120_000);

  it('keeps main history, shadows main on a branch, and tombstones branch deletions', async () => {
    const ex = currentHarness().service.executor;
    const main = `m-${randomUUID()}`;
    const b = `b-${randomUUID()}`;
    // main v1: a, b
    await ex.writeTx((tx) =>
      upsertStates(tx, writeViewOf(mainView(main, 0)), 'GNode', [
        { id: 'a', props: { name: 'A', kind: 'behavior', x: 1 } },
        { id: 'b', props: { name: 'B', kind: 'behavior' } },
      ]),
    );
    expect(await names(mainView(main, 1))).to.deep.equal(['a=A', 'b=B']);
    expect(await names(mainView(main, 0))).to.deep.equal([]);
    // branch forks at main 1, renames a and deletes b at its version 1
    const bv0 = branchView({ id: b, base_main_version: 1 }, main, 0);
    await ex.writeTx(async (tx) => {
      const w = writeViewOf(bv0);
      await upsertStates(tx, w, 'GNode', [{ id: 'a', props: { name: 'A1' } }]);
      await removeStates(tx, w, 'GNode', ['b']);
    });
    const bv1 = { ...bv0, ver: 1 };
    expect(await names(bv0)).to.deep.equal(['a=A', 'b=B']);
    expect(await names(bv1)).to.deep.equal(['a=A1']);
    // the branch's copy kept the fields it did not change
    const [row] = await ex.read<{ x: number }>(readAll, { view: bv1 });
    expect(row?.x).to.equal(1);
    // main v2 changes a and b; the branch still reads main at its base beneath its records
    await ex.writeTx(async (tx) => {
      const w = writeViewOf(mainView(main, 1));
      await upsertStates(tx, w, 'GNode', [{ id: 'a', props: { name: 'A2' } }]);
      await upsertStates(tx, w, 'GNode', [{ id: 'c', props: { name: 'C' } }]);
      await removeStates(tx, w, 'GNode', ['b']);
    });
    expect(await names(mainView(main, 2))).to.deep.equal(['a=A2', 'c=C']);
    expect(await names(mainView(main, 1))).to.deep.equal(['a=A', 'b=B']);
    expect(await names(bv1)).to.deep.equal(['a=A1']);
    const one = await ex.read<{ name: string | null }>(readOne, { view: bv0, id: 'a' });
    expect(one[0]?.name).to.equal('A');
    // two writes in one version change the record in place; positions never bump history
    await ex.writeTx(async (tx) => {
      const w = writeViewOf(bv1);
      await upsertStates(tx, w, 'GNode', [{ id: 'd', props: { name: 'D' } }]);
      await upsertStates(tx, w, 'GNode', [{ id: 'd', props: { name: 'D2' } }]);
      await placeNodes(tx, w, [{ id: 'a', x: 9, y: 9 }]);
    });
    expect(await names({ ...bv0, ver: 2 })).to.deep.equal(['a=A1', 'd=D2']);
    const counted = await ex.read<{ n: number }>(
      cypher('testCountLine', 'MATCH (s:GNode {branch_id: $b}) RETURN count(s) AS n'),
      { b },
    );
    // a (v1, then closed at 2 by nothing: positions change in place), b tombstone, d
    expect(counted[0]?.n).to.equal(3);
  });

  it('creates entities the view does not have, closing a tombstone left open on the line', async () => {
    const ex = currentHarness().service.executor;
    const main = `m-${randomUUID()}`;
    const b = `b-${randomUUID()}`;
    await ex.writeTx((tx) =>
      upsertStates(tx, writeViewOf(mainView(main, 0)), 'GNode', [
        { id: 'a', props: { name: 'A', kind: 'behavior' } },
      ]),
    );
    const bv0 = branchView({ id: b, base_main_version: 1 }, main, 0);
    // the branch deletes main's a (a tombstone), then adds a again at its next version
    await ex.writeTx((tx) => removeStates(tx, writeViewOf(bv0), 'GNode', ['a']));
    const added = await ex.writeTx((tx) =>
      createGraph(tx, writeViewOf({ ...bv0, ver: 1 }), {
        nodes: [
          { id: 'a', props: { name: 'A again', kind: 'behavior' } },
          { id: 'e', props: { name: 'E', kind: 'behavior' } },
        ],
        ports: [],
        edges: [],
      }),
    );
    expect(added).to.deep.equal({ nodes: 2, ports: 0, edges: 0 });
    expect(await names({ ...bv0, ver: 1 })).to.deep.equal([]);
    expect(await names({ ...bv0, ver: 2 })).to.deep.equal(['a=A again', 'e=E']);
    // one open record per entity on the line: the tombstone was closed at version 2
    const open = await ex.read<{ id: string; n: number }>(
      cypher(
        'testOpenOnLine',
        `MATCH (s:GNode {branch_id: $b}) WHERE s.vto = 9007199254740991
         RETURN s.id AS id, count(s) AS n ORDER BY id`,
      ),
      { b },
    );
    expect(open).to.deep.equal([
      { id: 'a', n: 1 },
      { id: 'e', n: 1 },
    ]);
  });
});
