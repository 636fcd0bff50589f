/**
 * What a fork costs in the versioned store: the Branch record and nothing else. A
 * working branch stores only the entities it changes (copy-on-write per node, port
 * and wire) and reads main as it was at its base_main_version beneath them.
 */
import { expect } from 'chai';
import { cypher } from '../shared/neo4j/namedQuery';
import { currentHarness, newUser } from './support/harness';
import { addEdge, addNode, port, uuid } from './support/graphBuilders';
import { content, mergeProject } from './support/mergeWorkspace';

const countLine = cypher(
  'testCountRecordsOfLine',
  `RETURN COUNT { MATCH (n:GNode {branch_id: $line}) } AS nodes,
          COUNT { MATCH (p:Port {branch_id: $line}) } AS ports,
          COUNT { MATCH (e:Edge {branch_id: $line}) } AS edges`,
);

async function recordsOn(line: string): Promise<{ nodes: number; ports: number; edges: number }> {
  const [row] = await currentHarness().service.executor.read<{
    nodes: number;
    ports: number;
    edges: number;
  }>(countLine, { line });
  return row ?? { nodes: 0, ports: 0, edges: 0 };
}

describe('fork cost on the versioned store', function () {
  // each test seeds main through a fork and a merge first: slow on a loaded machine
  this.timeout(120_000);

  it('a fork of a non-empty main writes no node, port or wire record, and reads main', async () => {
    const project = await mergeProject(await newUser());
    const box = uuid();
    const out = port('out');
    const inp = port('in');
    const producer = uuid();
    const consumer = uuid();
    const wire = uuid();
    await project.seed([
      addNode({ id: box, kind: 'boundary', data: { name: 'box' } }),
      addNode({ id: producer, parent_id: box, data: { name: 'producer', outputs: [out] } }),
      addNode({ id: consumer, parent_id: box, data: { name: 'consumer', inputs: [inp] } }),
      addEdge(out.id, inp.id, wire),
    ]);
    const onMain = await recordsOn(project.mainId);
    expect(onMain.nodes).to.be.at.least(3);
    expect(onMain.ports).to.be.at.least(2);
    expect(onMain.edges).to.be.at.least(1);

    const branch = await project.fork();
    expect(await recordsOn(branch.id)).to.deep.equal({ nodes: 0, ports: 0, edges: 0 });
    // the main line did not grow either: the branch reads main's records at its base
    expect(await recordsOn(project.mainId)).to.deep.equal(onMain);
    const main = await project.main();
    expect(main.nodes).to.have.length(3);
    expect(content(await branch.graph())).to.deep.equal(content(main));
  });

  it('a branch writes only the entities it changes and keeps reading main at its base', async () => {
    const project = await mergeProject(await newUser());
    const a = uuid();
    const b = uuid();
    await project.seed([
      addNode({ id: a, data: { name: 'a' } }),
      addNode({ id: b, data: { name: 'b' } }),
    ]);
    const branch = await project.fork();
    await branch.apply([{ type: 'update_node_data', node_id: a, after: { name: 'a2' } }]);
    // one record: the branch's copy of a, with the fields it did not change
    expect(await recordsOn(branch.id)).to.deep.equal({ nodes: 1, ports: 0, edges: 0 });
    const read = await branch.graph();
    const names = Object.fromEntries(read.nodes.map((n: any) => [n.id, n.data.name]));
    expect(names).to.deep.equal({ [a]: 'a2', [b]: 'b' });

    // main moves on under the branch (another branch merged); the branch still sees its base
    await project.seed([{ type: 'delete_node', node_id: b }]);
    const mainNow = await project.main();
    expect(mainNow.nodes.map((n: any) => n.id)).to.deep.equal([a]);
    const again = await branch.graph();
    expect(again.nodes.map((n: any) => n.id).sort()).to.deep.equal([a, b].sort());

    // a delete on the branch is a tombstone on its line, main keeps its record
    await branch.apply([{ type: 'delete_node', node_id: b }]);
    expect(await recordsOn(branch.id)).to.deep.equal({ nodes: 2, ports: 0, edges: 0 });
    const after = await branch.graph();
    expect(after.nodes.map((n: any) => n.id)).to.deep.equal([a]);
  });

  it('a branch deleting a subtree main has writes tombstones; main keeps its records', async () => {
    const project = await mergeProject(await newUser());
    const box = uuid();
    const out = port('out');
    const inp = port('in');
    const inner = uuid();
    const outside = uuid();
    await project.seed([
      addNode({ id: box, kind: 'boundary', data: { name: 'box' } }),
      addNode({ id: inner, parent_id: box, data: { name: 'inner', outputs: [out] } }),
      addNode({ id: outside, data: { name: 'outside', inputs: [inp] } }),
      addEdge(out.id, inp.id),
    ]);
    const onMain = await recordsOn(project.mainId);
    const branch = await project.fork();
    await branch.apply([{ type: 'delete_node', node_id: box }]);
    // box and inner, inner's port, the wire on it: one tombstone each
    expect(await recordsOn(branch.id)).to.deep.equal({ nodes: 2, ports: 1, edges: 1 });
    const read = await branch.graph();
    expect(read.nodes.map((n: any) => n.id)).to.deep.equal([outside]);
    expect(read.edges).to.deep.equal([]);
    expect(await recordsOn(project.mainId)).to.deep.equal(onMain);
    expect((await project.main()).nodes).to.have.length(3);
  });
});
