/**
 * Kept findings (GFinding records, recomputed only for what a write reached) against the
 * whole computation over the view (computeFindings), after every kind of write: delta
 * batches of every delta type, a revert, fast-forward and replayed merges, an import.
 * validateDeltas and getMergePreview answer from the kept records; the whole computation
 * is the oracle they must agree with exactly, order included. A main of a store written
 * before findings were kept gets them from the worker's backfill.
 */
import { expect } from 'chai';
import { backfillKeptFindings, findingsAreKept, mainView } from '../services/graph';
import { cypher } from '../shared/neo4j/namedQuery';
import { currentHarness, newUser } from './support/harness';
import { expectAgree, headView } from './support/keptFindings';
import { addEdge, addNode, port, uuid } from './support/graphBuilders';
import { BranchHandle, mergeProject } from './support/mergeWorkspace';

describe('kept findings follow the change (validateDeltas, getMergePreview)', function () {
  this.timeout(120_000);

  it('agree with the whole computation after batches of every delta type, on a branch and on main after merges', async () => {
    const user = await newUser();
    const p = await mergeProject(user);
    const b: BranchHandle = await p.fork();
    const check = async (label: string) => expectAgree(await headView(b.id, p.mainId), label);

    const [box, inner, leaf, lone] = [uuid(), uuid(), uuid(), uuid()];
    const [i1, i2, i3] = [port('i1', 'int'), port('i2', 'str'), port('i3', 'int')];
    const [o1, o2] = [port('o1', 'int'), port('o2', 'int')];
    const [w1, w2, w3] = [uuid(), uuid(), uuid()];
    await b.apply([
      addNode({ id: box, kind: 'boundary', data: { name: 'box' } }),
      addNode({ id: inner, parent_id: box, data: { name: 'inner', inputs: [i1, i2] } }),
      addNode({ id: leaf, parent_id: box, data: { name: 'leaf', outputs: [o1, o2] } }),
      addNode({ id: lone, data: { name: 'lone', inputs: [i3] } }),
      addEdge(o1.id, i1.id, w1),
      addEdge(o2.id, i2.id, w2), // type_mismatch
      addEdge(o1.id, uuid(), w3), // dangling
    ]);
    const first = await check('after the first batch');
    expect(first.whole.map((f) => f.code)).to.include.members([
      'dangling_wire',
      'type_mismatch',
      'unsatisfied_input',
    ]);
    expect(first.records, 'kept records on the branch line').to.be.greaterThan(0);

    // a wire goes: its target input becomes unsatisfied
    await b.apply([{ type: 'delete_edge', edge_id: w1 }]);
    await check('after delete_edge');
    // a port's type changes: the mismatch on its wire clears
    await b.apply([
      {
        type: 'update_node_data',
        node_id: inner,
        after: { inputs: [i1, { ...i2, type: 'int' }] },
      },
    ]);
    await check('after a port type change');
    // a traced boundary: orphans get reported from now on
    const tbox = uuid();
    await b.apply([
      addNode({ id: tbox, kind: 'boundary', data: { name: 'traced', source_decisions: [uuid()] } }),
    ]);
    const traced = await check('after a traced boundary');
    expect(traced.whole.map((f) => f.code)).to.include('orphan_node');
    // a whole subtree moves under the traced boundary (its orphans clear), a node moves out
    await b.apply([
      { type: 'reparent_node', node_id: box, parent_id: tbox },
      { type: 'reparent_node', node_id: leaf, parent_id: null },
    ]);
    await check('after reparents');
    // the traced boundary dissolves: its children move up and are orphans again
    await b.apply([{ type: 'flatten_boundary', node_id: tbox }]);
    await check('after flatten_boundary');
    await b.apply([{ type: 'flatten_boundary', node_id: box }]);
    await check('after a second flatten_boundary');
    // a node with wired ports goes: its wires go with it
    await b.apply([{ type: 'delete_node', node_id: leaf }]);
    await check('after delete_node');

    // main after a fast-forward merge equals the branch
    await b.mergeOk();
    await expectAgree(await headView(p.mainId, p.mainId), 'main after fast-forward');

    // two branches of the new main; one merges, the other replays over it
    const c = await p.fork();
    const d = await p.fork();
    const [x, xi] = [uuid(), port('xi', 'int')];
    await c.apply([addNode({ id: x, data: { name: 'x', inputs: [xi] } })]);
    await d.apply([
      addNode({ data: { name: 'y', outputs: [port('yo', 'str')] } }),
      { type: 'update_node_data', node_id: inner, after: { name: 'inner renamed' } },
    ]);
    await expectAgree(await headView(d.id, p.mainId), 'a branch over main');
    await c.mergeOk();
    const preview = await d.preview();
    const mainBefore = await headView(p.mainId, p.mainId);
    const before = await expectAgree(mainBefore, 'main before the replay');
    await d.mergeOk();
    const after = await expectAgree(await headView(p.mainId, p.mainId), 'main after replay');
    const key = (f: { code: string; locator: string }) => `${f.code}:${f.locator}`;
    const beforeKeys = new Set(before.whole.map(key));
    const afterKeys = new Set(after.whole.map(key));
    expect(preview.findings_added.map(key), 'preview: added').to.deep.equal(
      after.whole.filter((f) => !beforeKeys.has(key(f))).map(key),
    );
    expect(preview.findings_cleared.map(key), 'preview: cleared').to.deep.equal(
      before.whole.filter((f) => !afterKeys.has(key(f))).map(key),
    );
  });

  it("on a branch, clear a finding the branch recorded by closing its record, and one of main's with a tombstone", async () => {
    const user = await newUser();
    const p = await mergeProject(user);
    const fromMain = port('in', 'int');
    await p.seed([addNode({ data: { name: 'on-main', inputs: [fromMain] } })]);
    const b = await p.fork();
    const [ownA, ownB] = [port('a', 'int'), port('b', 'int')];
    await b.apply([addNode({ data: { name: 'own', inputs: [ownA, ownB] } })]);
    // one run of additions whose wire ends on an existing input (recorded with its facts)
    const out = port('out', 'int');
    await b.apply([
      addNode({ data: { name: 'feeder', outputs: [out] } }),
      addEdge(out.id, ownA.id),
    ]);
    // wires between existing ports (recorded after their checks)
    await b.apply([addEdge(out.id, ownB.id), addEdge(out.id, fromMain.id)]);
    const head = await headView(b.id, p.mainId);
    const after = await expectAgree(head, 'after the wires');
    expect(after.whole.filter((f) => f.code === 'unsatisfied_input')).to.deep.equal([]);
    for (const [version, label] of [
      [head.ver - 1, 'before the second wires'],
      [head.ver - 2, 'before the first wire'],
    ] as const)
      await expectAgree({ ...head, ver: version }, label);

    const { executor } = currentHarness().service;
    const records = await executor.read<{ id: string; vfrom: number; vto: number; gone: boolean }>(
      {
        name: 'findingRecordsOf',
        text: `MATCH (f:GFinding {branch_id: $line}) WHERE f.id IN $ids
               RETURN f.id AS id, f.vfrom AS vfrom, f.vto AS vto, coalesce(f.gone, false) AS gone
               ORDER BY id, vfrom`,
      },
      { line: b.id, ids: [ownA, ownB, fromMain].map((x) => `unsatisfied_input:${x.id}`) },
    );
    const of = (x: { id: string }) =>
      records
        .filter((r) => r.id === `unsatisfied_input:${x.id}`)
        .map(({ vfrom, vto, gone }) => ({ vfrom, vto, gone }));
    // the branch's own findings: the record written with the node, closed by the wire
    expect(of(ownA), 'own, cleared by a run').to.deep.equal([
      { vfrom: head.ver - 2, vto: head.ver - 1, gone: false },
    ]);
    expect(of(ownB), 'own, cleared by a wire between existing ports').to.deep.equal([
      { vfrom: head.ver - 2, vto: head.ver, gone: false },
    ]);
    // main's finding: the branch's line had no record of it, so a tombstone hides main's
    expect(of(fromMain), "main's, cleared on the branch").to.deep.equal([
      { vfrom: head.ver, vto: Number.MAX_SAFE_INTEGER, gone: true },
    ]);
  });

  it('agree after a revert, and validate answers from them', async () => {
    const user = await newUser();
    const p = await mergeProject(user);
    const b = await p.fork();
    const [n, i] = [uuid(), port('in', 'int')];
    await b.apply([addNode({ id: n, data: { name: 'n', inputs: [i] } })]);
    const o = port('out', 'int');
    await b.apply([addNode({ data: { name: 'm', outputs: [o] } }), addEdge(o.id, i.id)]);
    await expectAgree(await headView(b.id, p.mainId), 'before the revert');
    const res = await user.api.post(`/v1/branches/${b.id}/revert`, {
      version: 2,
      expected_version: 2,
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const reverted = await expectAgree(await headView(b.id, p.mainId), 'after the revert');
    expect(reverted.whole.map((f) => [f.code, f.locator])).to.deep.equal([
      ['unsatisfied_input', i.id],
    ]);
    const validated = await user.api.post(`/v1/branches/${b.id}/validate`, {
      deltas: [{ type: 'delete_node', node_id: n }],
    });
    expect(validated.status).to.equal(200);
    expect(validated.body).to.deep.include({ findings: [], valid: true, truncated: false });
  });

  it('agree on an imported project', async () => {
    const user = await newUser();
    const p = await mergeProject(user);
    const b = await p.fork();
    const [ai, bo] = [port('ai', 'int'), port('bo', 'str')];
    await b.apply([
      addNode({ data: { name: 'a', inputs: [ai, port('unwired', 'int')] } }),
      addNode({ data: { name: 'b', outputs: [bo] } }),
      addEdge(bo.id, ai.id),
    ]);
    const exported = await user.api.get(`/v1/branches/${b.id}/file`);
    expect(exported.status).to.equal(200);
    const res = await (await newUser()).api.post('/v1/projects/import', exported.body);
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const mainId = res.body.main_branch.id;
    const agreed = await expectAgree(mainView(mainId, res.body.main_branch.version), 'imported');
    expect(agreed.whole.map((f) => f.code)).to.deep.equal(['type_mismatch', 'unsatisfied_input']);
    expect(agreed.records, 'kept records on the imported main').to.equal(4); // 2 findings, 2 orphans
  });

  it('are backfilled for a main written before findings were kept, level by level, once', async () => {
    const user = await newUser();
    const p = await mergeProject(user);
    const [top, mid, leaf] = [uuid(), uuid(), uuid()];
    const [i1, i2, o1, o2] = [
      port('i1', 'int'),
      port('i2', 'str'),
      port('o1', 'int'),
      port('o2', 'int'),
    ];
    await p.seed([
      addNode({ id: top, kind: 'boundary', data: { name: 'top', source_decisions: [uuid()] } }),
      addNode({ id: mid, kind: 'boundary', parent_id: top, data: { name: 'mid' } }),
      addNode({ id: leaf, parent_id: mid, data: { name: 'leaf', inputs: [i1, i2] } }),
      addNode({ data: { name: 'lone', outputs: [o1, o2] } }),
      addNode({ data: { name: 'other' } }),
      addEdge(o1.id, i1.id),
      addEdge(o2.id, i2.id), // type_mismatch
      addEdge(o1.id, uuid()), // dangling
    ]);
    await p.seed([addNode({ parent_id: mid, data: { name: 'deep' } })]);
    const { executor } = currentHarness().service;
    // as a store written before findings were kept: no findings_from, no GFinding records
    await executor.write(
      cypher(
        'testForgetKeptFindings',
        `MATCH (b:Branch {id: $mainId}) REMOVE b.findings_from
         WITH b MATCH (f:GFinding {branch_id: b.id}) DETACH DELETE f
         RETURN count(*) AS removed`,
      ),
      { mainId: p.mainId },
    );
    const view = await headView(p.mainId, p.mainId);
    expect(await executor.readTx((tx) => findingsAreKept(tx, view))).to.equal(false);

    // two sweeps at once: one claims main, the other leaves it; chunks of 2 entities
    const runs = await Promise.all([
      backfillKeptFindings(executor, { chunk: 2, limit: 1000 }),
      backfillKeptFindings(executor, { chunk: 2, limit: 1000 }),
    ]);
    expect(runs.map((r) => r.kept + r.deferred)).to.satisfy((n: number[]) =>
      n.every((x) => x >= 1),
    );
    const agreed = await expectAgree(view, 'backfilled main');
    expect(agreed.whole.map((f) => f.code)).to.include.members([
      'dangling_wire',
      'orphan_node',
      'type_mismatch',
    ]);
    const records = agreed.records;
    // nothing is owed any more: a later sweep leaves the main alone
    await backfillKeptFindings(executor, { chunk: 2, limit: 1000 });
    expect((await expectAgree(view, 'after a second sweep')).records).to.equal(records);

    // later writes refresh from the kept records, and a new fork keeps its findings too
    const b = await p.fork();
    await b.apply([{ type: 'reparent_node', node_id: leaf, parent_id: null }]);
    await expectAgree(await headView(b.id, p.mainId), 'a fork of the backfilled main');
    await b.mergeOk();
    await expectAgree(await headView(p.mainId, p.mainId), 'main after a merge');
  });
});
