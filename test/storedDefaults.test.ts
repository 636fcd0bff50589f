/**
 * A node or port record stores no field that holds its default (storedProps,
 * storedPortProps): applyDeltas and importProject leave such fields out, a write that sets
 * a field back to its default removes the property, and every read (getBranchGraph, the
 * graph file) shows the default all the same. What is stored is read here from Neo4j
 * itself, since no response tells the two forms apart.
 */
import { expect } from 'chai';
import { cypher } from '../shared/neo4j/namedQuery';
import { currentHarness, newUser } from './support/harness';
import { addNode, port, uuid } from './support/graphBuilders';
import { mergeProject } from './support/mergeWorkspace';

/** The property names of each open record of `ids` on line `line`, by id. */
const openRecordKeys = cypher(
  'testOpenRecordKeys',
  `UNWIND $ids AS id
   MATCH (s {branch_id: $line, id: id}) WHERE s.vto = 9007199254740991 AND (s:GNode OR s:Port)
   RETURN s.id AS id, keys(s) AS keys`,
);

async function storedKeys(line: string, ids: string[]): Promise<Map<string, string[]>> {
  const rows = await currentHarness().service.executor.read<{ id: string; keys: string[] }>(
    openRecordKeys,
    { line, ids },
  );
  return new Map(rows.map((row) => [row.id, [...row.keys].sort()]));
}

/** Which of `names` a record's keys hold (the record must have been found). */
function among(keys: string[] | undefined, names: string[]): string[] {
  expect(keys, 'no open record').to.be.an('array').that.includes('name');
  return (keys ?? []).filter((key) => names.includes(key));
}

const NODE_DEFAULTED = [
  'aliases',
  'constraints',
  'description',
  'is_external',
  'is_test_node',
  'source_decisions',
  'status',
  'verifications',
];

describe('stored records leave defaults out', function () {
  this.timeout(60_000);

  it('a node added with a name only stores none of its defaulted fields, and reads them back', async () => {
    const user = await newUser();
    const p = await mergeProject(user);
    const b = await p.fork();
    const input = port('in', 'int');
    const node = addNode({ data: { name: 'plain', inputs: [input] } });
    await b.apply([node]);

    const keys = await storedKeys(b.id, [node.node.id, input.id]);
    expect(keys.get(node.node.id)).to.include.members(['kind', 'name', 'name_key', 'scope']);
    expect(among(keys.get(node.node.id), NODE_DEFAULTED)).to.deep.equal([]);
    expect(keys.get(input.id)).to.include.members(['name', 'type', 'node_id', 'channel']);
    expect(among(keys.get(input.id), ['description', 'external'])).to.deep.equal([]);

    const read = (await b.graph()).nodes.find((n: any) => n.id === node.node.id);
    expect(read.data).to.include({
      name: 'plain',
      description: '',
      status: 'idle',
      is_test_node: false,
      is_external: false,
    });
    expect(read.data.constraints).to.deep.equal([]);
    expect(read.data.inputs).to.deep.equal([
      { ...input, description: '', external: false, contract_name: null },
    ]);
  });

  it('an update that sets fields back to their defaults removes them from the record', async () => {
    const user = await newUser();
    const p = await mergeProject(user);
    const b = await p.fork();
    const input = { ...port('in', 'int'), description: 'feeds', external: true };
    const node = addNode({
      data: {
        name: 'busy',
        status: 'running',
        description: 'does',
        constraints: ['c'],
        inputs: [input],
      },
    });
    await b.apply([node]);
    const id = node.node.id;
    expect((await storedKeys(b.id, [id])).get(id)).to.include.members(['status', 'description']);

    const plainInput = { id: input.id, name: 'in', type: 'int', description: '', external: false };
    await b.apply([
      {
        type: 'update_node_data',
        node_id: id,
        after: { status: 'idle', description: '', constraints: [], inputs: [plainInput] },
      },
    ]);
    const keys = await storedKeys(b.id, [id, input.id]);
    expect(among(keys.get(id), ['status', 'description', 'constraints'])).to.deep.equal([]);
    expect(among(keys.get(input.id), ['description', 'external'])).to.deep.equal([]);
    const read = (await b.graph()).nodes.find((n: any) => n.id === id);
    expect(read.data).to.include({ status: 'idle', description: '' });
    expect(read.data.inputs[0]).to.include({ description: '', external: false });
  });

  it('an imported graph stores no defaults either, and its file reads back the same', async () => {
    const user = await newUser();
    const [nodeId, input] = [uuid(), port('in', 'int')];
    const file = {
      schema_version: 6,
      project_name: `defaults ${uuid().slice(0, 8)}`,
      nodes: [
        { id: nodeId, kind: 'behavior', parent_id: null, data: { name: 'n', inputs: [input] } },
      ],
      edges: [],
    };
    const created = await user.api.post('/v1/projects/import', file);
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const mainId = created.body.main_branch.id;
    const keys = await storedKeys(mainId, [nodeId, input.id]);
    expect(among(keys.get(nodeId), NODE_DEFAULTED)).to.deep.equal([]);
    expect(among(keys.get(input.id), ['description', 'external'])).to.deep.equal([]);
    const exported = await user.api.get(`/v1/branches/${mainId}/file`);
    expect(exported.status).to.equal(200);
    const [node] = exported.body.nodes;
    expect(node.data).to.include({ name: 'n', status: 'idle', description: '' });
    expect(node.data.inputs).to.deep.equal([
      { ...input, description: '', external: false, contract_name: null },
    ]);
  });
});
