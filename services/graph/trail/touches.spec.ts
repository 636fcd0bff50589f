import { expect } from 'chai';
import type { Delta } from '../deltas/deltaTypes';
import { cascadeTouches, touchesOf } from './touches';

const N = '00000000-0000-4000-8000-000000000001';
const P1 = '00000000-0000-4000-8000-0000000000a1';
const P2 = '00000000-0000-4000-8000-0000000000a2';
const E = '00000000-0000-4000-8000-0000000000e1';
const M = '00000000-0000-4000-8000-000000000002';

/** N (output P1) and M (input P2) added, and the wire E from P1 to P2, in one change. */
const wiredPair: Delta[] = [
  {
    index: 0,
    type: 'add_node',
    node: { id: N, kind: 'behavior', parent_id: null, data: { outputs: [{ id: P1 }] } },
  },
  {
    index: 1,
    type: 'add_node',
    node: { id: M, kind: 'behavior', parent_id: null, data: { inputs: [{ id: P2 }] } },
  },
  // both ends on nodes this change touched: no touch of its own
  { index: 2, type: 'add_edge', edge: { id: E, source_handle: P1, target_handle: P2 } },
];

describe('touchesOf (what a change touched, as the trail indexes it)', () => {
  it('keys a node delta by the node, with the fields it set and the ports of its lists', () => {
    const deltas: Delta[] = [
      {
        index: 0,
        type: 'add_node',
        node: {
          id: N,
          kind: 'behavior',
          parent_id: null,
          data: { name: 'a', inputs: [{ id: P1 }] },
        },
      },
      { index: 1, type: 'update_node_data', node_id: N, after: { description: 'd' } },
    ];
    expect(touchesOf(deltas)).to.deep.equal([
      {
        key: N,
        entity: 'node',
        id: N,
        action: 'added',
        fields: ['kind', 'parent_id', 'name', 'inputs', 'description'],
        ports: [P1],
        wires: [],
      },
    ]);
  });

  it('keys an added wire by each of its ports and a removed wire by its own id', () => {
    const deltas: Delta[] = [
      { index: 0, type: 'add_edge', edge: { id: E, source_handle: P1, target_handle: P2 } },
      { index: 1, type: 'delete_edge', edge_id: E },
    ];
    expect(touchesOf(deltas).map((t) => [t.key, t.entity, t.id, t.action])).to.deep.equal([
      [P1, 'edge', E, 'added'],
      [P2, 'edge', E, 'added'],
      [E, 'edge', E, 'removed'],
    ]);
  });

  it('lists a wire on the touch of a node the change touched, and keeps a touch by port for the other end', () => {
    const P3 = '00000000-0000-4000-8000-0000000000a3';
    const E2 = '00000000-0000-4000-8000-0000000000e2';
    const deltas: Delta[] = [
      ...wiredPair,
      // P3 belongs to a node the change did not touch: that end keeps its touch
      { index: 3, type: 'add_edge', edge: { id: E2, source_handle: P1, target_handle: P3 } },
      { index: 4, type: 'delete_edge', edge_id: E2 },
    ];
    expect(touchesOf(deltas).map((t) => [t.key, t.entity, t.id, t.action, t.wires])).to.deep.equal([
      [N, 'node', N, 'added', [E, E2]],
      [M, 'node', M, 'added', [E]],
      [P3, 'edge', E2, 'added', []],
      [E2, 'edge', E2, 'removed', []],
    ]);
  });

  it('a removal outranks an earlier change of the same node in one batch', () => {
    const deltas: Delta[] = [
      { index: 0, type: 'reparent_node', node_id: N, parent_id: null },
      { index: 1, type: 'delete_node', node_id: N },
    ];
    const [touch] = touchesOf(deltas);
    expect(touch).to.include({ action: 'removed' });
    expect(touch.fields).to.deep.equal(['parent_id']);
  });

  it('cascadeTouches does not take a wire added with its node for one removed with it', () => {
    const touches = touchesOf(wiredPair);
    expect(touches.map((t) => t.id)).to.deep.equal([N, M]);
    const written = { nodes: [N, M], edges: [E] };
    expect(cascadeTouches(touches, written, new Set([N, M]))).to.equal(touches);
  });
});
