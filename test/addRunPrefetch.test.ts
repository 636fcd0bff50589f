/**
 * applyDeltas reads what a batch's leading additions need in the statement that takes
 * the branch's write lock and reads the caller's access row (lockAndPrefetchAddRun), so
 * that read derives its write view from the locked branch row in Cypher instead of from
 * the row the code receives (view.ts writeViewOf). The applier uses that answer only when
 * the two views agree, and reads again otherwise: these tests hold the two derivations to
 * the same view, on a working branch and on main, the facts read to those of the view
 * itself, and the access row to the one the lock alone reads. If the views drifted apart,
 * every batch would still be right but pay a second read. The same statement writes the
 * run's records after reading its facts, when the branch is one the batch may write: the
 * last test holds it to writing only then, and the facts to the view before the write.
 */
import { expect } from 'chai';
import { cypher } from '../shared/neo4j/namedQuery';
import { lockAndReadRunFacts } from '../services/graph/deltas/leadingRun';
import { readRunFacts, RunFacts } from '../services/graph/deltas/runFacts';
import type { AddNode } from '../services/graph/deltas/deltaTypes';
import { runRecords } from '../services/graph/deltas/runRows';
import { branchView, writeViewOf } from '../services/graph/view';
import { addEdge, addNode, port, uuid, workspace } from './support/graphBuilders';
import { currentHarness, newUser } from './support/harness';
import { mergeProject } from './support/mergeWorkspace';

const branchRow = cypher(
  'testBranchRow',
  `MATCH (b:Branch {id: $id})
   RETURN b.id AS id, b.version AS version, b.main_id AS main_id,
          b.base_main_version AS base_main_version`,
);

type Row = { id: string; version: number; main_id: string; base_main_version: number };

/** The facts a lock read found, failing the test when it found no branch. */
function factsIn(read: { facts: RunFacts | undefined }): RunFacts {
  if (!read.facts) throw new Error('the lock read found no branch');
  return read.facts;
}

/** An add_node delta as parsed, under `parentId`, named `name`. */
function parsedAdd(parentId: string | null, name: string): AddNode {
  return {
    type: 'add_node',
    index: 0,
    node: { id: uuid(), kind: 'behavior', parent_id: parentId, data: { name } },
  };
}

describe('the add-run facts read with the branch lock (applyDeltas)', function () {
  // the first statements of a run are planned cold: slow on a loaded machine
  this.timeout(120_000);

  it('reads through the write view built from the locked row, on a working branch and on main', async () => {
    const user = await newUser();
    const w = await workspace(user);
    const top = uuid();
    await w.apply([addNode({ id: top, kind: 'boundary', data: { name: 'top' } })]);
    await w.apply([addNode({ parent_id: top, data: { name: 'taken' } })]);
    const ex = currentHarness().service.executor;
    const caller = { userId: user.userId };
    for (const id of [w.branchId, w.mainId]) {
      const { row, locked, viaView } = await ex.writeTx(async (tx) => {
        const [found] = await tx.run<Row>(branchRow, { id });
        const view = writeViewOf(branchView(found, found.main_id, found.version));
        const run = [parsedAdd(id === w.branchId ? top : null, 'taken')];
        const read = await lockAndReadRunFacts(tx, { id, ...caller }, run, 64);
        return {
          row: found,
          locked: { access: read.access, facts: factsIn(read) },
          viaView: await readRunFacts(tx, view, run, 64),
        };
      });
      const expected = writeViewOf(branchView(row, row.main_id, row.version));
      expect(locked.facts.view, id).to.deep.equal(expected);
      expect(viaView.view, id).to.deep.equal(expected);
      // the ids, the taken names and the parents' depths read either way agree
      expect({ ...locked.facts, view: null }).to.deep.equal({ ...viaView, view: null });
      // the access row is the one the lock alone reads: the branch, its project, the role
      expect(locked.access?.branch.id, id).to.equal(id);
      expect(locked.access?.project?.id, id).to.equal(w.projectId);
      expect(locked.access?.role, id).to.equal('owner');
    }
    // on the branch, the parent and the sibling name were found through that view
    const onBranch = await ex.writeTx(async (tx) => {
      const read = await lockAndReadRunFacts(
        tx,
        { id: w.branchId, ...caller },
        [parsedAdd(top, 'taken')],
        64,
      );
      return factsIn(read);
    });
    expect(onBranch.facts.map((f) => [f.id, f.nodeKind])).to.deep.equal([[top, 'boundary']]);
    expect(onBranch.takenNames).to.have.length(1);
    expect(onBranch.depths).to.deep.equal([{ id: top, depth: 1 }]);
  });

  it('counts as in use an id main holds under the branch, and not one the branch deleted', async () => {
    const p = await mergeProject(await newUser());
    const [kept, deleted, fresh] = [uuid(), uuid(), uuid()];
    await p.seed([
      addNode({ id: kept, data: { name: 'kept' } }),
      addNode({ id: deleted, data: { name: 'deleted' } }),
    ]);
    const b = await p.fork();
    await b.apply([{ type: 'delete_node', node_id: deleted }]);
    // one addition per read, unparented: the shape of the reads above, so that the store
    // plans the statement once for all of them (each list size is planned apart)
    const ex = currentHarness().service.executor;
    const usedOn = (branchId: string, id: string) =>
      ex.writeTx(async (tx) => {
        const add = parsedAdd(null, 'again');
        const run = [{ ...add, node: { ...add.node, id } }];
        const read = await lockAndReadRunFacts(
          tx,
          { id: branchId, userId: p.user.userId },
          run,
          64,
        );
        return factsIn(read).facts.map((f) => f.id);
      });
    expect(await usedOn(b.id, kept)).to.deep.equal([kept]);
    expect(await usedOn(b.id, deleted)).to.deep.equal([]);
    expect(await usedOn(b.id, fresh)).to.deep.equal([]);
    expect(await usedOn(p.mainId, kept)).to.deep.equal([kept]);
    expect(await usedOn(p.mainId, deleted)).to.deep.equal([deleted]);
  });

  it("re-adds what the branch deleted of main's, closing only those tombstones: one open record per entity", async () => {
    const p = await mergeProject(await newUser());
    const [x, y, z] = [uuid(), uuid(), uuid()];
    const [into, out] = [port('in'), port('out')];
    const wire = uuid();
    await p.seed([
      addNode({ id: x, data: { name: 'x', inputs: [into] } }),
      addNode({ id: y, data: { name: 'y', outputs: [out] } }),
      addEdge(out.id, into.id, wire),
    ]);
    const b = await p.fork();
    // the branch's tombstones of main's x, its port and the wire on it
    await b.apply([{ type: 'delete_node', node_id: x }]);
    // one run of additions: the batch's first statement writes it, under the same ids
    await b.apply([
      addNode({ id: x, data: { name: 'x again', inputs: [into] } }),
      addEdge(out.id, into.id, wire),
      addNode({ id: z, data: { name: 'z' } }),
    ]);
    const graph = await b.graph();
    expect(graph.nodes.filter((n: any) => n.id === x).map((n: any) => n.data.name)).to.deep.equal([
      'x again',
    ]);
    expect(graph.edges.filter((e: any) => e.id === wire)).to.have.length(1);
    const open = await currentHarness().service.executor.read<{ id: string; n: number }>(
      cypher(
        'testOpenRecordsOnBranch',
        `UNWIND ['GNode', 'Port', 'Edge'] AS label
         MATCH (s) WHERE label IN labels(s) AND s.branch_id = $b AND s.id IN $ids
           AND s.vto = 9007199254740991
         RETURN s.id AS id, count(s) AS n ORDER BY id`,
      ),
      { b: b.id, ids: [x, into.id, wire, z] },
    );
    expect(open).to.deep.equal(
      [x, into.id, wire, z].sort().map((id) => ({ id, n: 1 })),
      'a tombstone left open beside its entity',
    );
    // and the entity reads and writes as one
    await b.apply([{ type: 'update_node_data', node_id: x, after: { description: 'once' } }]);
    const again = await b.graph();
    expect(again.nodes.filter((n: any) => n.id === x)).to.have.length(1);
  });

  it('answers no access row for a missing branch, and no role for a caller who is not a member', async () => {
    const w = await workspace(await newUser());
    const stranger = await newUser();
    const ex = currentHarness().service.executor;
    const run = [parsedAdd(null, 'n')];
    const missing = await ex.writeTx(async (tx) => {
      const read = await lockAndReadRunFacts(tx, { id: uuid(), userId: stranger.userId }, run, 64);
      return {
        access: read.access,
        failed: read.facts === undefined,
      };
    });
    expect(missing).to.deep.equal({ access: undefined, failed: true });
    const foreign = await ex.writeTx(async (tx) => {
      const read = await lockAndReadRunFacts(
        tx,
        { id: w.mainId, userId: stranger.userId },
        run,
        64,
      );
      return read.access;
    });
    expect(foreign?.branch.id).to.equal(w.mainId);
    expect(foreign?.role).to.equal(null);
  });

  it('writes the run after reading its facts, only to a working branch the caller owns at the version the batch expects', async () => {
    const user = await newUser();
    const w = await workspace(user);
    await w.apply([addNode({ data: { name: 'first' } })]);
    const stranger = await newUser();
    const ex = currentHarness().service.executor;
    const rolledBack = new Error('roll back');
    /** Reads and writes `run` in one statement, then rolls back: prewritten, and the ids in use after. */
    const attempt = async (branchId: string, userId: string, expectedVersion: number) => {
      const add = parsedAdd(null, 'again');
      const run = [add];
      let seen: { prewritten: boolean; before: string[]; after: string[] } | undefined;
      await ex
        .writeTx(async (tx) => {
          const read = await lockAndReadRunFacts(tx, { id: branchId, userId }, run, 64, {
            records: runRecords(run),
            expectedVersion,
          });
          const facts = factsIn(read);
          const again = await readRunFacts(tx, facts.view, run, 64);
          seen = {
            prewritten: facts.prewritten,
            before: facts.facts.map((f) => f.id),
            after: again.facts.map((f) => f.id),
          };
          throw rolledBack;
        })
        .catch((error: unknown) => {
          if (error !== rolledBack) throw error;
        });
      return { ...seen, id: add.node.id };
    };
    const written = await attempt(w.branchId, user.userId, 1);
    // read before the write, the id was free; the write made it one in use
    expect(written).to.deep.include({ prewritten: true, before: [] });
    expect(written.after).to.deep.equal([written.id]);
    for (const [branchId, userId, version, why] of [
      [w.branchId, user.userId, 0, 'a stale expected version'],
      [w.mainId, user.userId, 0, 'main'],
      [w.branchId, stranger.userId, 1, 'a caller who does not own the branch'],
    ] as const) {
      const refused = await attempt(branchId, userId, version);
      expect(refused, why).to.deep.include({ prewritten: false, before: [], after: [] });
    }
  });
});
