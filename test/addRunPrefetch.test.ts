/**
 * applyDeltas sends the read of what a batch's leading additions need right behind the
 * branch's lock, before the lock is answered, so that read derives its write view from
 * the branch row in Cypher (prefetchAddRunOfBranch) instead of from the row the lock
 * returns (view.ts writeViewOf). The applier uses that answer only when the two views
 * agree, and reads again otherwise: these tests hold the two derivations to the same
 * view, on a working branch and on main, and the facts read to those of the view itself.
 * If they drifted apart, every batch would still be right but pay a second round trip.
 */
import { expect } from 'chai';
import { cypher } from '../shared/neo4j/namedQuery';
import { readRunFacts } from '../services/graph/deltas/addRunApplier';
import type { AddNode } from '../services/graph/deltas/deltaTypes';
import { branchView, writeViewOf } from '../services/graph/view';
import { addNode, uuid, workspace } from './support/graphBuilders';
import { currentHarness, newUser } from './support/harness';

const branchRow = cypher(
  'testBranchRow',
  `MATCH (b:Branch {id: $id})
   RETURN b.id AS id, b.version AS version, b.main_id AS main_id,
          b.base_main_version AS base_main_version`,
);

type Row = { id: string; version: number; main_id: string; base_main_version: number };

/** An add_node delta as parsed, under `parentId`, named `name`. */
function parsedAdd(parentId: string | null, name: string): AddNode {
  return {
    type: 'add_node',
    index: 0,
    node: { id: uuid(), kind: 'behavior', parent_id: parentId, data: { name } },
  };
}

describe('the add-run prefetch through the locked branch row (applyDeltas)', function () {
  // the first statements of a run are planned cold: slow on a loaded machine
  this.timeout(120_000);

  it('reads through the write view built from the row, on a working branch and on main', async () => {
    const w = await workspace(await newUser());
    const top = uuid();
    await w.apply([addNode({ id: top, kind: 'boundary', data: { name: 'top' } })]);
    await w.apply([addNode({ parent_id: top, data: { name: 'taken' } })]);
    const ex = currentHarness().service.executor;
    for (const id of [w.branchId, w.mainId]) {
      const { row, viaRow, viaView } = await ex.writeTx(async (tx) => {
        const [found] = await tx.run<Row>(branchRow, { id });
        const view = writeViewOf(branchView(found, found.main_id, found.version));
        const run = [parsedAdd(id === w.branchId ? top : null, 'taken')];
        return {
          row: found,
          viaRow: await readRunFacts(tx, { branchId: id }, run, 64),
          viaView: await readRunFacts(tx, view, run, 64),
        };
      });
      const expected = writeViewOf(branchView(row, row.main_id, row.version));
      expect(viaRow.view, id).to.deep.equal(expected);
      expect(viaView.view, id).to.deep.equal(expected);
      // the ids, the taken names and the parents' depths read either way agree
      expect({ ...viaRow, view: null }).to.deep.equal({ ...viaView, view: null });
    }
    // on the branch, the parent and the sibling name were found through that view
    const onBranch = await ex.writeTx((tx) =>
      readRunFacts(tx, { branchId: w.branchId }, [parsedAdd(top, 'taken')], 64),
    );
    expect(onBranch.facts.map((f) => [f.id, f.nodeKind])).to.deep.equal([[top, 'boundary']]);
    expect(onBranch.takenNames).to.have.length(1);
    expect(onBranch.depths).to.deep.equal([{ id: top, depth: 1 }]);
  });
});
