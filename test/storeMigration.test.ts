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
