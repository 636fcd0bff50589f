/**
 * An import's touches (importProject, getMainNodeHistory): an import writes no Touch
 * records; a node's history reads the import's touch of it from the records the import
 * wrote at main's version 0, with the same fields, ports and wires a batch adding the
 * node would have recorded. History retention may remove those records once later
 * changes replace them, so the history sweep (sweepHistory) writes the touches down
 * first, and the history reads the same before and after.
 */
import { expect } from 'chai';
import { sweepHistory } from '../services/purge';
import { cypher } from '../shared/neo4j/namedQuery';
import { workerConfig } from './support/decisionFixtures';
import { port, uuid } from './support/graphBuilders';
import { currentHarness, newUser, TestUser, uniqueName } from './support/harness';
import { branchHandle } from './support/mergeWorkspace';

const touchCount = cypher(
  'testImportTouchCount',
  `MATCH (t:Touch {branch_id: $line, version: 0}) RETURN count(t) AS touches`,
);
const derivedMark = cypher(
  'testImportDerivedMark',
  `MATCH (c:Change {branch_id: $line, version: 0}) RETURN c.touches_derived AS derived`,
);
/** What retention does to a replaced record no pin holds: the node's version-0 record goes. */
const dropVersionZero = cypher(
  'testDropVersionZeroNode',
  `MATCH (n:GNode {branch_id: $line, id: $id}) WHERE n.vfrom = 0 DETACH DELETE n
   RETURN count(*) AS dropped`,
);

async function stored(line: string): Promise<{ touches: number; derived: boolean | null }> {
  const executor = currentHarness().service.executor;
  const [count] = await executor.read<{ touches: number }>(touchCount, { line });
  const [mark] = await executor.read<{ derived: boolean | null }>(derivedMark, { line });
  return { touches: count.touches, derived: mark.derived };
}

async function history(user: TestUser, projectId: string, node: string): Promise<any> {
  const res = await user.api.get(`/v1/graph/${projectId}/node/${node}/history`);
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body;
}

const summary = (body: any) =>
  body.changes.map((c: any) => [c.version, c.kind, c.action, c.fields, c.ports, c.wires]);

describe("an import's touches, derived from its records", function () {
  this.timeout(120_000);

  it('read like a batch’s, written down by the history sweep before it removes any record', async () => {
    const user = await newUser();
    const [a, c, e] = [uuid(), uuid(), uuid()];
    const [o, i, k] = [port('o'), port('i'), port('k')];
    const imported = await user.api.post('/v1/projects/import', {
      schema_version: 6,
      project_name: uniqueName('derived'),
      nodes: [
        {
          id: a,
          kind: 'behavior',
          parent_id: null,
          data: { name: 'a', description: 'what a does', outputs: [o] },
        },
        {
          id: c,
          kind: 'behavior',
          parent_id: null,
          // a status given at its default is not told from one left out: not among c's fields
          data: { name: 'c', status: 'idle', inputs: [i], config: [k] },
        },
      ],
      edges: [{ id: e, source_handle: o.id, target_handle: i.id }],
    });
    expect(imported.status, JSON.stringify(imported.body)).to.equal(201);
    const projectId: string = imported.body.project.id;
    const mainId: string = imported.body.main_branch.id;
    // nothing of the trail but the import's Change record is written
    expect(await stored(mainId)).to.deep.equal({ touches: 0, derived: true });

    const wired = [{ id: e, action: 'added' }];
    const aAdded = [0, 'import', 'added', ['kind', 'parent_id', 'name', 'description', 'outputs']];
    expect(summary(await history(user, projectId, a))).to.deep.equal([[...aAdded, [o.id], wired]]);
    const cAdded = [0, 'import', 'added', ['kind', 'parent_id', 'name', 'inputs', 'config']];
    expect(summary(await history(user, projectId, c))).to.deep.equal([
      [...cAdded, [i.id, k.id], wired],
    ]);

    // main changes a's name through a merge: a's version-0 record is replaced
    const fork = await user.api.post(`/v1/projects/${projectId}/branches`, { name: uniqueName() });
    expect(fork.status, JSON.stringify(fork.body)).to.equal(201);
    const b = branchHandle(user, fork.body.branch.id);
    await b.apply([{ type: 'update_node_data', node_id: a, after: { name: 'a2' } }]);
    await b.mergeOk();
    const before = await history(user, projectId, a);
    expect(summary(before)).to.deep.equal([
      [1, 'merge', 'changed', ['name'], [], []],
      [...aAdded, [o.id], wired],
    ]);
    expect(before.fields).to.deep.equal({
      name: { branch_id: mainId, version: 1 },
      kind: { branch_id: mainId, version: 0 },
      parent_id: { branch_id: mainId, version: 0 },
      description: { branch_id: mainId, version: 0 },
      outputs: { branch_id: mainId, version: 0 },
    });
    const cBefore = await history(user, projectId, c);

    // every version is past the window: the sweep writes the import's touches down
    const executor = currentHarness().service.executor;
    const retention = workerConfig({
      HISTORY_RETENTION_DAYS: '0',
      HISTORY_MIN_MAIN_VERSIONS: '1',
    }).history;
    const swept = await sweepHistory(executor, retention, {
      now: Date.now() + 1000,
      projectId,
    });
    expect(swept.lines).to.be.greaterThan(0);
    expect(await stored(mainId)).to.deep.equal({ touches: 2, derived: null });
    // and once a's version-0 record is gone, its history reads them as written down
    const [gone] = await executor.write<{ dropped: number }>(dropVersionZero, {
      line: mainId,
      id: a,
    });
    expect(gone.dropped).to.equal(1);
    expect(await history(user, projectId, a)).to.deep.equal(before);
    expect(await history(user, projectId, c)).to.deep.equal(cBefore);
  });

  it('lists the ports as the node’s data does: by channel, then by position, whatever their ids', async () => {
    const user = await newUser();
    const node = uuid();
    // ids in the reverse of their positions, so that neither id order nor the store's
    // order can pass for the data's
    const [third, second, first] = [uuid(), uuid(), uuid()].sort();
    const inputs = [first, second, third].map((id, at) => ({ ...port(`in${at}`), id }));
    const output = port('out');
    const imported = await user.api.post('/v1/projects/import', {
      schema_version: 6,
      project_name: uniqueName('port-order'),
      nodes: [
        {
          id: node,
          kind: 'behavior',
          parent_id: null,
          data: { name: 'n', outputs: [output], inputs },
        },
      ],
      edges: [],
    });
    expect(imported.status, JSON.stringify(imported.body)).to.equal(201);
    const [added] = (await history(user, imported.body.project.id, node)).changes;
    expect(added.fields).to.deep.equal(['kind', 'parent_id', 'name', 'inputs', 'outputs']);
    expect(added.ports).to.deep.equal([first, second, third, output.id]);
  });
});
