/** Unit tests of three-way conflict detection on in-memory snapshots. */
import { expect } from 'chai';
import type { BranchWrites } from '../branchHistory';
import { cloneSnapshot, emptySnapshot, NodeImage, PortImage, Snapshot } from '../graphSnapshot';
import { MergeAnalysis } from './mergeAnalysis';

function node(id: string, fields: Partial<NodeImage> = {}): NodeImage {
  return {
    id,
    kind: 'behavior',
    parent_id: null,
    name: id,
    description: '',
    ...fields,
  } as NodeImage;
}

function port(id: string, nodeId: string, fields: Partial<PortImage> = {}): PortImage {
  return { id, node_id: nodeId, channel: 'inputs', ord: 0, name: id, type: 't', ...fields };
}

function snapshot(nodes: NodeImage[], ports: PortImage[] = []): Snapshot {
  const s = emptySnapshot();
  for (const n of nodes) s.node.set(n.id, n);
  for (const p of ports) s.port.set(p.id, p);
  return s;
}

function writes(nodeFields: Record<string, string[]> = {}): BranchWrites {
  return {
    nodeFields: new Map(Object.entries(nodeFields).map(([k, v]) => [k, new Set(v)])),
    portFields: new Map(),
    lastTouch: new Map(),
    addedNodes: new Set(),
  };
}

const reasons = (a: MergeAnalysis) => a.detect().map((c) => `${c.reason}:${c.entity_id}`);

describe('merge conflict detection', () => {
  it('finds nothing when main did not move', () => {
    const base = snapshot([node('a')]);
    const branch = snapshot([node('a', { name: 'b' })]);
    expect(reasons(new MergeAnalysis(base, cloneSnapshot(base), branch, writes()))).to.deep.equal(
      [],
    );
  });

  it('a field written on the branch (even unchanged) and changed on main conflicts; equal ends do not', () => {
    const base = snapshot([node('a', { description: 'x' })]);
    const main = snapshot([node('a', { description: 'main' })]);
    const written = new MergeAnalysis(
      base,
      main,
      cloneSnapshot(base),
      writes({ a: ['description'] }),
    );
    expect(reasons(written)).to.deep.equal(['modified_on_both:a']);
    const same = snapshot([node('a', { description: 'main' })]);
    expect(
      reasons(new MergeAnalysis(base, main, same, writes({ a: ['description'] }))),
    ).to.deep.equal([]);
    const untouched = new MergeAnalysis(base, main, cloneSnapshot(base), writes());
    expect(reasons(untouched)).to.deep.equal([]);
  });

  it('a port list the branch replaced on a channel main changed is modified_on_both [inputs]', () => {
    const base = snapshot([node('n')], [port('p1', 'n')]);
    const main = snapshot([node('n')], [port('p1', 'n'), port('p2', 'n', { ord: 1 })]);
    const branch = snapshot([node('n')], [port('p1', 'n', { name: 'renamed' })]);
    const a = new MergeAnalysis(base, main, branch, writes({ n: ['inputs'] }));
    const [c] = a.detect();
    expect(c).to.deep.include({ reason: 'modified_on_both', entity_id: 'n', fields: ['inputs'] });
    expect(c.branch_change?.values).to.deep.equal({ inputs: ['p1'] });
    expect(c.main_change?.values).to.deep.equal({ inputs: ['p1', 'p2'] });
  });

  it('a port main added to a node the branch deleted is reported on the node', () => {
    const base = snapshot([node('n')]);
    const main = snapshot([node('n')], [port('p', 'n')]);
    const a = new MergeAnalysis(base, main, snapshot([]), writes());
    expect(reasons(a)).to.deep.equal(['deleted_on_branch_modified_on_main:n']);
  });

  it('a removal around a node is not a change the other side could lose', () => {
    const base = snapshot([node('n')], [port('p', 'n')]);
    const main = snapshot([node('n')]);
    const a = new MergeAnalysis(base, main, snapshot([]), writes());
    expect(reasons(a)).to.deep.equal([]);
  });

  it('paths are dotted names, ports as node:port', () => {
    const base = snapshot(
      [node('box', { kind: 'boundary' }), node('n', { parent_id: 'box' })],
      [port('p', 'n')],
    );
    const main = cloneSnapshot(base);
    main.port.set('p', port('p', 'n', { type: 'main' }));
    const branch = cloneSnapshot(base);
    branch.port.set('p', port('p', 'n', { type: 'branch' }));
    const [c] = new MergeAnalysis(base, main, branch, writes()).detect();
    expect(c).to.deep.include({ reason: 'modified_on_both', path: 'box.n:p', fields: ['type'] });
  });
});
