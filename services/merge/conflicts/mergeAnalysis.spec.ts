/**
 * Unit tests of three-way conflict detection on in-memory snapshots. Every case runs twice:
 * on the full snapshots, and on the sparse ones a merge loads (the entities changed on either
 * side or written by the branch, plus their context, threeWaySnapshots.ts), with the same answer.
 */
import { expect } from 'chai';
import type { BranchWrites } from '../branchHistory';
import { emptyIds, IdSets } from '../changeSets';
import {
  cloneSnapshot,
  EdgeImage,
  emptySnapshot,
  ENTITY_KINDS,
  NodeImage,
  PortImage,
  Snapshot,
} from '../graphSnapshot';
import { diffSnapshots } from '../snapshotDiff';
import { loadThreeWay, snapshotReader } from '../threeWaySnapshots';
import type { MergeConflict } from './conflictList';
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

function edge(id: string, source: string | null, target: string | null): EdgeImage {
  return { id, source_handle: source, target_handle: target };
}

function snapshot(nodes: NodeImage[], ports: PortImage[] = [], edges: EdgeImage[] = []): Snapshot {
  const s = emptySnapshot();
  for (const n of nodes) s.node.set(n.id, n);
  for (const p of ports) s.port.set(p.id, p);
  for (const e of edges) s.edge.set(e.id, e);
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

/** What a merge's change sets hold: ids either side changed, and ids the branch wrote. */
function changedIds(base: Snapshot, main: Snapshot, branch: Snapshot, w: BranchWrites): IdSets {
  const ids = emptyIds();
  for (const side of [main, branch]) {
    const diff = diffSnapshots(base, side);
    for (const kind of ENTITY_KINDS) {
      for (const id of [...diff[kind].added, ...diff[kind].removed]) ids[kind].add(id);
      for (const c of diff[kind].changed) ids[kind].add(c.id);
    }
  }
  for (const id of [...w.nodeFields.keys(), ...w.addedNodes]) ids.node.add(id);
  for (const id of w.portFields.keys()) ids.port.add(id);
  return ids;
}

/**
 * The conflicts found on full snapshots, checked equal to those found on the sparse
 * snapshots loaded from the same three views.
 */
async function detectBoth(
  base: Snapshot,
  main: Snapshot,
  branch: Snapshot,
  w: BranchWrites,
): Promise<MergeConflict[]> {
  const full = new MergeAnalysis(base, main, branch, w).detect();
  const snaps = await loadThreeWay(
    { base: snapshotReader(base), main: snapshotReader(main), branch: snapshotReader(branch) },
    changedIds(base, main, branch, w),
  );
  expect(snaps.main.sparse).to.equal(true);
  const sparse = new MergeAnalysis(snaps.base, snaps.main, snaps.branch, w).detect();
  expect(sparse).to.deep.equal(full);
  return full;
}

/** The found conflicts as reason:entity, on full and on sparse snapshots alike. */
async function reasonsOf(
  base: Snapshot,
  main: Snapshot,
  branch: Snapshot,
  w: BranchWrites,
): Promise<string[]> {
  return (await detectBoth(base, main, branch, w)).map((c) => `${c.reason}:${c.entity_id}`);
}

describe('merge conflict detection (full and sparse snapshots)', () => {
  it('finds nothing when main did not move', async () => {
    const base = snapshot([node('a')]);
    const branch = snapshot([node('a', { name: 'b' })]);
    expect(await reasonsOf(base, cloneSnapshot(base), branch, writes())).to.deep.equal([]);
  });

  it('a field written on the branch (even unchanged) and changed on main conflicts; equal ends do not', async () => {
    const base = snapshot([node('a', { description: 'x' })]);
    const main = snapshot([node('a', { description: 'main' })]);
    const written = await reasonsOf(
      base,
      main,
      cloneSnapshot(base),
      writes({ a: ['description'] }),
    );
    expect(written).to.deep.equal(['modified_on_both:a']);
    const same = snapshot([node('a', { description: 'main' })]);
    expect(await reasonsOf(base, main, same, writes({ a: ['description'] }))).to.deep.equal([]);
    expect(await reasonsOf(base, main, cloneSnapshot(base), writes())).to.deep.equal([]);
  });

  it('a port list the branch replaced on a channel main changed is modified_on_both [inputs]', async () => {
    // p0 is changed by neither side: the sparse snapshots still hold it (ports of changed nodes)
    const p0 = port('p0', 'n', { ord: -1 });
    const base = snapshot([node('n')], [p0, port('p1', 'n')]);
    const main = snapshot([node('n')], [p0, port('p1', 'n'), port('p2', 'n', { ord: 1 })]);
    const branch = snapshot([node('n')], [p0, port('p1', 'n', { name: 'renamed' })]);
    const [c] = await detectBoth(base, main, branch, writes({ n: ['inputs'] }));
    expect(c).to.deep.include({ reason: 'modified_on_both', entity_id: 'n', fields: ['inputs'] });
    expect(c.branch_change?.values).to.deep.equal({ inputs: ['p0', 'p1'] });
    expect(c.main_change?.values).to.deep.equal({ inputs: ['p0', 'p1', 'p2'] });
  });

  it('a port main added to a node the branch deleted is reported on the node', async () => {
    const base = snapshot([node('n')]);
    const main = snapshot([node('n')], [port('p', 'n')]);
    expect(await reasonsOf(base, main, snapshot([]), writes())).to.deep.equal([
      'deleted_on_branch_modified_on_main:n',
    ]);
  });

  it('a removal around a node is not a change the other side could lose', async () => {
    const base = snapshot([node('n')], [port('p', 'n')]);
    const main = snapshot([node('n')]);
    expect(await reasonsOf(base, main, snapshot([]), writes())).to.deep.equal([]);
  });

  it('paths are dotted names, ports as node:port (through unchanged ancestors)', async () => {
    const base = snapshot(
      [
        node('top', { kind: 'boundary' }),
        node('box', { kind: 'boundary', parent_id: 'top' }),
        node('n', { parent_id: 'box' }),
      ],
      [port('p', 'n')],
    );
    const main = cloneSnapshot(base);
    main.port.set('p', port('p', 'n', { type: 'main' }));
    const branch = cloneSnapshot(base);
    branch.port.set('p', port('p', 'n', { type: 'branch' }));
    const [c] = await detectBoth(base, main, branch, writes());
    expect(c).to.deep.include({
      reason: 'modified_on_both',
      path: 'top.box.n:p',
      fields: ['type'],
    });
  });

  it('moves on each side that close a cycle through an unchanged node are a reparent_conflict', async () => {
    // main moves x under z; the branch moves y under x; z (under y) is changed by neither
    const nodes = (x: string | null, y: string | null) =>
      snapshot([
        node('x', { kind: 'boundary', parent_id: x }),
        node('y', { kind: 'boundary', parent_id: y }),
        node('z', { kind: 'boundary', parent_id: 'y' }),
      ]);
    const base = nodes(null, null);
    const reasons = await reasonsOf(
      base,
      nodes('z', null),
      nodes(null, 'x'),
      writes({ y: ['parent_id'] }),
    );
    expect(reasons).to.deep.equal(['reparent_conflict:y']);
  });

  it('an input port rewired on both sides is compared with the wires neither side changed', async () => {
    const ports = [port('i', 'n'), port('o0', 'm', { channel: 'outputs' })];
    const more = ['o1', 'o2', 'o3'].map((id) => port(id, 'm', { channel: 'outputs' }));
    const nodes = [node('n'), node('m')];
    const w0 = edge('w0', 'o0', 'i'); // on every side, changed by nobody
    const base = snapshot(nodes, [...ports, ...more], [w0, edge('w1', 'o1', 'i')]);
    const main = snapshot(nodes, [...ports, ...more], [w0, edge('w2', 'o2', 'i')]);
    const branch = snapshot(
      nodes,
      [...ports, ...more],
      [w0, edge('w1', 'o1', 'i'), edge('w3', 'o3', 'i')],
    );
    const [c] = await detectBoth(base, main, branch, writes());
    expect(c).to.deep.include({ reason: 'rewired_on_both', entity_id: 'i' });
    expect(c.main_change?.values).to.deep.equal({ source_handle: ['o0', 'o2'] });
    expect(c.branch_change?.values).to.deep.equal({ source_handle: ['o0', 'o1', 'o3'] });
  });

  it('siblings named alike on each side collide; the sparse snapshots leave out the rest', async () => {
    const base = snapshot([node('box', { kind: 'boundary' }), node('other')]);
    const main = snapshot([...base.node.values(), node('a', { parent_id: 'box', name: 'same' })]);
    const branch = snapshot([...base.node.values(), node('b', { parent_id: 'box', name: 'same' })]);
    const w = writes();
    w.addedNodes.add('b');
    expect(await reasonsOf(base, main, branch, w)).to.deep.equal(['name_collision:b']);
    const snaps = await loadThreeWay(
      { base: snapshotReader(base), main: snapshotReader(main), branch: snapshotReader(branch) },
      changedIds(base, main, branch, w),
    );
    expect([...snaps.main.node.keys()].sort()).to.deep.equal(['a', 'box']);
    expect([...snaps.branch.node.keys()].sort()).to.deep.equal(['b', 'box']);
    expect(snaps.base.node.has('other')).to.equal(false);
  });
});
