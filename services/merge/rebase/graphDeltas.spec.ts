/** The deltas between two snapshots (graphDeltas.ts): what they change, in an order that applies. */
import { expect } from 'chai';
import { emptySnapshot, NodeImage, PortImage, Snapshot } from '../graphSnapshot';
import { deltasBetween } from './graphDeltas';

function node(id: string, fields: Partial<NodeImage> = {}): NodeImage {
  return {
    id,
    kind: 'boundary',
    parent_id: null,
    name: id,
    description: '',
    ...fields,
  } as NodeImage;
}

function snapshot(nodes: NodeImage[], ports: PortImage[] = []): Snapshot {
  const s = emptySnapshot();
  for (const n of nodes) s.node.set(n.id, n);
  for (const p of ports) s.port.set(p.id, p);
  return s;
}

describe('deltas between snapshots', () => {
  it('nothing between equal snapshots', () => {
    const s = snapshot([node('a')]);
    expect(deltasBetween(s, snapshot([node('a')]))).to.deep.equal([]);
  });

  it('moves out of a removed subtree before removing its top, adds parents before children', () => {
    const from = snapshot([
      node('top'),
      node('child', { parent_id: 'top' }),
      node('kept', { parent_id: 'top' }),
    ]);
    const to = snapshot([
      node('kept', { parent_id: 'new' }),
      node('new', { parent_id: 'added' }),
      node('added'),
    ]);
    const types = deltasBetween(from, to).map(
      (d) => `${d.type}:${'node_id' in d ? d.node_id : 'node' in d ? d.node.id : ''}`,
    );
    expect(types).to.deep.equal([
      'reparent_node:kept',
      'delete_node:top',
      'add_node:added',
      'add_node:new',
      'reparent_node:kept',
    ]);
  });

  it('an update names only the fields that differ, a port list as a whole', () => {
    const port = (id: string, name: string): PortImage =>
      ({
        id,
        node_id: 'n',
        channel: 'inputs',
        ord: 0,
        name,
        type: 't',
        description: '',
        external: false,
        contract_name: null,
      }) as PortImage;
    const from = snapshot([node('n', { kind: 'behavior', description: 'a' })], [port('p', 'x')]);
    const to = snapshot([node('n', { kind: 'behavior', description: 'b' })], [port('p', 'y')]);
    const [delta] = deltasBetween(from, to);
    expect(delta).to.deep.include({ type: 'update_node_data', node_id: 'n' });
    const after = (delta as { after: Record<string, unknown> }).after;
    expect(Object.keys(after).sort()).to.deep.equal(['description', 'inputs']);
    expect(after.inputs).to.deep.equal([
      { id: 'p', name: 'y', type: 't', description: '', external: false, contract_name: null },
    ]);
  });
});
