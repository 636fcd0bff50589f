import { expect } from 'chai';
import { inverseDeltas, RevertInput, StoredState } from './revertPlan';

const node = (id: string, name: string, parent: string | null = null): StoredState => ({
  id,
  kind: id.startsWith('box') ? 'boundary' : 'behavior',
  name,
  parent_id: parent,
  scope: parent ?? '',
  verifications: '[]',
});
const outPort = (id: string, nodeId: string): StoredState => ({
  id,
  node_id: nodeId,
  channel: 'outputs',
  ord: 0,
  name: 'out',
  type: 'int',
});

function input(parts: Partial<RevertInput>): RevertInput {
  return {
    nodes: new Map(),
    edges: new Map(),
    portsBefore: new Map(),
    portsAfter: new Map(),
    ...parts,
  };
}

describe('inverseDeltas (revertPlan)', () => {
  it('deletes what the batch added: wires first, then only the top of an added subtree', () => {
    const deltas = inverseDeltas(
      input({
        nodes: new Map([
          ['box1', { before: null, after: node('box1', 'box') }],
          ['child', { before: null, after: node('child', 'c', 'box1') }],
        ]),
        edges: new Map([
          ['w', { before: null, after: { source_handle: 'p', target_handle: null } }],
        ]),
      }),
    );
    expect(deltas).to.deep.equal([
      { type: 'delete_edge', edge_id: 'w' },
      { type: 'delete_node', node_id: 'box1' },
    ]);
  });

  it('brings back what the batch deleted, parents first, ports in the data, wires last', () => {
    const deltas = inverseDeltas(
      input({
        nodes: new Map([
          ['child', { before: node('child', 'c', 'box1'), after: null }],
          ['box1', { before: node('box1', 'box'), after: null }],
        ]),
        edges: new Map([
          ['w', { before: { source_handle: 'p', target_handle: null }, after: null }],
        ]),
        portsBefore: new Map([['child', [outPort('p', 'child')]]]),
      }),
    );
    expect(deltas.map((d) => d.type)).to.deep.equal(['add_node', 'add_node', 'add_edge']);
    const [box, child, wire] = deltas as any[];
    expect(box.node).to.include({ id: 'box1', kind: 'boundary', parent_id: null });
    expect(child.node).to.include({ id: 'child', parent_id: 'box1' });
    expect(child.node.data.outputs.map((p: any) => p.id)).to.deep.equal(['p']);
    expect(wire.edge).to.deep.equal({ id: 'w', source_handle: 'p', target_handle: null });
  });

  it('gives changed data back and moves a node back, after its former parent came back', () => {
    const deltas = inverseDeltas(
      input({
        nodes: new Map([
          ['n', { before: node('n', 'old', 'box1'), after: node('n', 'new') }],
          ['box1', { before: node('box1', 'box'), after: null }],
        ]),
      }),
    );
    expect(deltas.map((d) => d.type)).to.deep.equal([
      'update_node_data',
      'add_node',
      'reparent_node',
    ]);
    expect((deltas[0] as any).after.name).to.equal('old');
    expect((deltas[0] as any).after).to.not.have.property('source_decisions');
    expect(deltas[2]).to.deep.equal({ type: 'reparent_node', node_id: 'n', parent_id: 'box1' });
  });

  it('writes nothing for a node whose data and place did not change', () => {
    const same = node('n', 'same');
    expect(
      inverseDeltas(input({ nodes: new Map([['n', { before: same, after: same }]]) })),
    ).to.deep.equal([]);
  });
});
