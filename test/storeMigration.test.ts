/**
 * The one-time move of graph content written before the versioned store (one full
 * copy per branch, CONTAINS / HAS_PORT relationships, no versions) to versioned
 * records, run at start-up by ensureSchema (graph's migrateStore). Content in the old
 * shape is written directly, the migration is run again, and what main and the branch
 * read afterwards is checked through the API.
 */
import { expect } from 'chai';
import { cypher } from '../shared/neo4j/namedQuery';
import { migrateStore } from '../services/graph';
import { currentHarness, newUser, uniqueName } from './support/harness';
import { addNode, uuid } from './support/graphBuilders';
import { mergeProject } from './support/mergeWorkspace';

const writeOldShape = cypher(
  'testWriteOldShape',
  `MATCH (main:Branch {id: $mainId}), (b:Branch {id: $branchId})
   REMOVE main.main_id, b.main_id, main.history_floor, b.history_floor
   SET main.version = 3, b.version = 2, b.base_main_version = 3
   WITH main, b
   // main: boundary a containing behavior c (with an input port), top-level behavior x
   CREATE (a:GNode {branch_id: main.id, id: $a, kind: 'boundary', name: 'A', parent_id: null,
                    scope: '', x: 0.0, y: 0.0, source_decisions: []})
   CREATE (c:GNode {branch_id: main.id, id: $c, kind: 'behavior', name: 'C', parent_id: $a,
                    scope: $a, x: 1.0, y: 1.0, source_decisions: []})
   CREATE (x:GNode {branch_id: main.id, id: $x, kind: 'behavior', name: 'X', parent_id: null,
                    scope: '', x: 2.0, y: 2.0, source_decisions: []})
   CREATE (a)-[:CONTAINS]->(c)
   CREATE (c)-[:HAS_PORT]->(:Port {branch_id: main.id, id: $p, node_id: $c, channel: 'inputs',
                                   ord: 0, name: 'in', type: 'int'})
   // the branch's copy: C renamed, X deleted (absent from the copy), A and the port kept
   CREATE (a2:GNode {branch_id: b.id, id: $a, kind: 'boundary', name: 'A', parent_id: null,
                     scope: '', x: 0.0, y: 0.0, source_decisions: []})
   CREATE (c2:GNode {branch_id: b.id, id: $c, kind: 'behavior', name: 'C2', parent_id: $a,
                     scope: $a, x: 1.0, y: 1.0, source_decisions: []})
   CREATE (a2)-[:CONTAINS]->(c2)
   CREATE (c2)-[:HAS_PORT]->(:Port {branch_id: b.id, id: $p, node_id: $c, channel: 'inputs',
                                    ord: 0, name: 'in', type: 'int'})
   RETURN true AS written`,
);
const forgetMark = cypher(
  'testForgetMigrationMark',
  `MATCH (m:StoreMigration) DETACH DELETE m RETURN count(*) AS removed`,
);
const countRelationships = cypher(
  'testCountStructure',
  `MATCH (n:GNode)-[r:CONTAINS|HAS_PORT]->() WHERE n.branch_id IN $lines
   RETURN count(r) AS n`,
);

/** The trail as it was before it indexed touches: no Touch records, no `touched` mark,
 * and merges holding the merged branch's whole trail as their deltas. */
const writeOldTrail = cypher(
  'testWriteOldTrail',
  `CALL () {
     MATCH (t:Touch) WHERE t.branch_id IN $lines
     DETACH DELETE t
   }
   MATCH (c:Change) WHERE c.branch_id IN $lines
   REMOVE c.touched, c.merged_batches, c.merged_from_version, c.merged_to_version
   SET c.deltas = CASE WHEN c.kind = 'merge' THEN $mergeDeltas ELSE c.deltas END,
       c.deltas_bytes = CASE WHEN c.kind = 'merge' THEN size($mergeDeltas) ELSE c.deltas_bytes END
   RETURN count(c) AS changes`,
);
const forgetTrailMark = cypher(
  'testForgetTrailMark',
  `MATCH (m:StoreMigration {id: 'trail-touches'}) DETACH DELETE m RETURN count(*) AS removed`,
);

describe('store migration: the change trail recorded before it indexed touches', () => {
  it('backfills the touches of batches and merges, and bounds the merge records', async function () {
    this.timeout(120_000);
    const { executor, logger } = currentHarness().service;
    const p = await mergeProject(await newUser());
    const b = await p.fork();
    const n = uuid();
    await b.apply([addNode({ id: n, parent_id: null, data: { name: 'n' } })]);
    await b.apply([{ type: 'update_node_data', node_id: n, after: { name: 'n2' } }]);
    await b.mergeOk();
    const lines = [p.mainId, b.id];
    const listed = await p.user.api.get(`/v1/branches/${b.id}/changes`);
    const mergeDeltas = JSON.stringify(
      [...listed.body.changes].reverse().flatMap((c: { deltas: unknown[] }) => c.deltas),
    );
    await executor.write(writeOldTrail, { lines, mergeDeltas });
    // before the backfill the node has an (empty) history, never a 404
    const empty = await p.user.api.get(`/v1/branches/${b.id}/node/${n}/history`);
    expect(empty.status).to.equal(200);
    expect(empty.body.changes).to.deep.equal([]);

    await executor.write(forgetTrailMark);
    await migrateStore(executor, logger);
    await migrateStore(executor, logger); // idempotent: nothing indexed twice

    const onBranch = await p.user.api.get(`/v1/branches/${b.id}/node/${n}/history`);
    expect(onBranch.status).to.equal(200);
    expect(onBranch.body.changes.map((c: { version: number }) => c.version)).to.deep.equal([2, 1]);
    expect(onBranch.body.fields.name).to.deep.equal({ branch_id: b.id, version: 2 });
    const onMain = await p.user.api.get(`/v1/graph/${p.projectId}/node/${n}/history`);
    expect(onMain.body.changes).to.have.length(1);
    expect(onMain.body.changes[0]).to.include({ kind: 'merge', action: 'added' });
    const trail = await p.user.api.get(`/v1/branches/${p.mainId}/changes`);
    expect(trail.body.changes[0].deltas).to.deep.equal([]);
    expect(trail.body.changes[0].merged_trail).to.deep.equal({
      changes: 2,
      from_version: 1,
      to_version: 2,
    });
  });
});

describe('store migration: content written before the versioned store', () => {
  it('keeps what main and each branch saw, as versioned records with no relationships', async function () {
    this.timeout(120_000);
    const { executor } = currentHarness().service;
    const alice = await newUser();
    const created = await alice.api.post('/v1/projects', { name: uniqueName() });
    expect(created.status).to.equal(201);
    const mainId: string = created.body.main_branch.id;
    const forked = await alice.api.post(`/v1/projects/${created.body.project.id}/branches`, {
      name: 'old-copy',
    });
    expect(forked.status).to.equal(201);
    const branchId: string = forked.body.branch.id;
    const ids = { a: crypto.randomUUID(), c: crypto.randomUUID(), x: crypto.randomUUID() };
    const p = crypto.randomUUID();
    await executor.write(writeOldShape, { mainId, branchId, ...ids, p });
    await executor.write(forgetMark);

    await migrateStore(executor, currentHarness().service.logger);
    await migrateStore(executor, currentHarness().service.logger); // idempotent

    const main = await alice.api.get(`/v1/graph/${created.body.project.id}`);
    expect(main.status).to.equal(200);
    const mainNames = main.body.nodes.map((n: { data: { name: string } }) => n.data.name).sort();
    expect(mainNames).to.deep.equal(['A', 'C', 'X']);
    const branch = await alice.api.get(`/v1/branches/${branchId}/graph`);
    expect(branch.status).to.equal(200);
    expect(branch.body.branch.version).to.equal(2);
    const names = branch.body.nodes.map((n: { data: { name: string } }) => n.data.name).sort();
    expect(names).to.deep.equal(['A', 'C2']);
    const c = branch.body.nodes.find((n: { id: string }) => n.id === ids.c);
    expect(c.parent_id).to.equal(ids.a);
    expect(c.data.inputs.map((q: { id: string }) => q.id)).to.deep.equal([p]);
    const [rels] = await executor.read<{ n: number }>(countRelationships, {
      lines: [mainId, branchId],
    });
    expect(rels?.n).to.equal(0);
  });
});

/** Node records as written before they carried `name_key`. */
const dropNameKeys = cypher(
  'testDropNameKeys',
  `MATCH (n:GNode) WHERE n.branch_id IN $lines AND n.name_key IS NOT NULL
   REMOVE n.name_key
   RETURN count(n) AS dropped`,
);
const forgetNameKeyMark = cypher(
  'testForgetNameKeyMark',
  `MATCH (m:StoreMigration {id: 'node-name-keys'}) DETACH DELETE m RETURN count(*) AS removed`,
);

describe('store migration: node records written before they carried their lower-cased name', () => {
  it('gives every record, history included, the key the name search finds it by', async function () {
    this.timeout(120_000);
    const { executor, logger } = currentHarness().service;
    const p = await mergeProject(await newUser());
    const b = await p.fork();
    const n = uuid();
    const word = `Keyed${uuid().slice(0, 8)}`;
    await b.apply([addNode({ id: n, parent_id: null, data: { name: `${word}-One` } })]);
    await b.apply([{ type: 'update_node_data', node_id: n, after: { name: `${word}-Two` } }]);
    const search = async (at = '') => {
      const res = await p.user.api.get(
        `/v1/branches/${b.id}/nodes/search?q=${word.toLowerCase()}${at}`,
      );
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      return res.body.nodes.map((m: { name: string }) => m.name);
    };
    expect(await search()).to.deep.equal([`${word}-Two`]);

    const [dropped] = await executor.write<{ dropped: number }>(dropNameKeys, { lines: [b.id] });
    expect(dropped?.dropped).to.equal(2);
    expect(await search()).to.deep.equal([]);
    await executor.write(forgetNameKeyMark);
    await migrateStore(executor, logger);
    await migrateStore(executor, logger); // idempotent

    expect(await search()).to.deep.equal([`${word}-Two`]);
    expect(await search('&version=1')).to.deep.equal([`${word}-One`]);
  });
});
