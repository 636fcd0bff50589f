/**
 * Scoped reads through HTTP: subtree (§4.11), neighborhood (§4.12), boundary view on
 * main (§4.13), paths and unaddressable (§2.12). Every response is checked against
 * the OpenAPI document by the client.
 */
import { expect } from 'chai';
import { addEdge, addNode, port, PortSpec, uuid, workspace, Workspace } from './support/graphBuilders';
import { copyOntoMain, forceNodeName } from './support/graphFixtures';
import { grant, newUser, TestUser } from './support/harness';

interface Built {
  id: string;
  in: PortSpec;
  out: PortSpec;
}

/** A node with one input and one output port (behavior unless told). */
function spec(name: string, parent: Built | null = null, kind = 'behavior'): { node: Built; delta: unknown } {
  const node = { id: uuid(), in: port('in'), out: port('out') };
  const delta = addNode({ id: node.id, kind, parent_id: parent?.id ?? null, data: { name, inputs: [node.in], outputs: [node.out] } });
  return { node, delta };
}

/** Adds nodes in order (parents first) in one batch; returns them by key. */
async function build<K extends string>(w: Workspace, plan: [K, string, K | null, string?][]): Promise<Record<K, Built>> {
  const out = {} as Record<K, Built>;
  const deltas: unknown[] = [];
  for (const [key, name, parent, kind] of plan) {
    const s = spec(name, parent === null ? null : out[parent], kind ?? 'behavior');
    out[key] = s.node;
    deltas.push(s.delta);
  }
  await w.apply(deltas);
  return out;
}

const wire = (from: Built, to: Built, id = uuid()) => addEdge(from.out.id, to.in.id, id);
const ids = (list: { id: string }[]) => list.map((x) => x.id).sort();
const NOT_FOUND = (res: { status: number; body: any }) => {
  expect(res.status, JSON.stringify(res.body)).to.equal(404);
  expect(res.body.detail.code).to.equal('not_found');
};

async function lastOpened(user: TestUser, projectId: string): Promise<string | null> {
  const list = (await user.api.get('/v1/projects')).body.projects as { id: string; last_opened_at: string | null }[];
  return list.find((p) => p.id === projectId)?.last_opened_at ?? null;
}

describe('scoped reads (§4.11-4.13, §2.12)', () => {
  describe('subtree (§4.11)', () => {
    let w: Workspace;
    let n: Record<'app' | 'core' | 'worker' | 'job' | 'step' | 'io' | 'outside', Built>;
    const subtree = (id: string, query = '') => w.user.api.get(`/v1/branches/${w.branchId}/subtree/${id}${query}`);

    before(async () => {
      w = await workspace(await newUser());
      n = await build(w, [
        ['app', 'app', null, 'boundary'],
        ['core', 'core', 'app', 'boundary'],
        ['worker', 'worker', 'core', 'boundary'],
        ['job', 'job', 'worker', 'boundary'],
        ['step', 'step', 'job'],
        ['io', 'reader', 'core'],
        ['outside', 'outside', null],
      ]);
    });

    it('defaults to depth 1: the root, its direct children only, and the full response shape', async () => {
      const res = await subtree(n.core.id);
      expect(res.status).to.equal(200);
      const body = res.body;
      expect(Object.keys(body).sort()).to.deep.equal(
        ['branch', 'cross_boundary_edges', 'depth', 'edges', 'nodes', 'paths', 'project_id', 'root', 'truncated', 'unaddressable', 'version'],
      );
      expect(body.branch).to.deep.equal({ id: w.branchId, version: w.version });
      expect(body.project_id).to.equal(w.projectId);
      expect(body.version).to.equal('1.0.0');
      expect(body.depth).to.equal(1);
      expect(body.root).to.deep.include({ id: n.core.id, kind: 'boundary', parent_id: n.app.id });
      expect(body.root.data.inputs.map((p: { id: string }) => p.id)).to.deep.equal([n.core.in.id]);
      expect(ids(body.nodes)).to.deep.equal([n.worker.id, n.io.id].sort());
      expect(body.nodes.map((x: { id: string }) => x.id)).to.deep.equal(ids(body.nodes)); // ordered by id
      expect(body.truncated).to.equal(true); // worker has children below depth 1
      expect(body.paths).to.deep.equal({
        [n.core.id]: 'app.core',
        [n.worker.id]: 'app.core.worker',
        [n.io.id]: 'app.core.reader',
      });
      expect(body.unaddressable).to.deep.equal({});
    });

    it('walks to the depth asked for; truncated is true exactly when descendants remain below', async () => {
      const d2 = (await subtree(n.core.id, '?depth=2')).body;
      expect(ids(d2.nodes)).to.deep.equal([n.worker.id, n.io.id, n.job.id].sort());
      expect(d2).to.include({ depth: 2, truncated: true });
      const d3 = (await subtree(n.core.id, '?depth=3')).body;
      expect(ids(d3.nodes)).to.deep.equal([n.worker.id, n.io.id, n.job.id, n.step.id].sort());
      expect(d3.paths[n.step.id]).to.equal('app.core.worker.job.step');
      expect(d3).to.include({ depth: 3, truncated: false }); // the deepest node is a leaf at depth 3
      const d32 = (await subtree(n.app.id, '?depth=32')).body;
      expect(d32.nodes).to.have.length(5);
      expect(d32).to.include({ depth: 32, truncated: false });
    });

    it('answers a leaf root with no nodes and truncated false', async () => {
      const body = (await subtree(n.step.id, '?depth=5')).body;
      expect(body.root.id).to.equal(n.step.id);
      expect(body).to.deep.include({ nodes: [], edges: [], cross_boundary_edges: [], depth: 5, truncated: false });
      expect(body.paths).to.deep.equal({ [n.step.id]: 'app.core.worker.job.step' });
    });

    it('refuses depth 0, 33 and a non-integer with 422 in the array form', async () => {
      for (const q of ['?depth=0', '?depth=33', '?depth=two', '?depth=1.5']) {
        const res = await subtree(n.core.id, q);
        expect(res.status, q).to.equal(422);
        expect(res.body.detail).to.be.an('array').that.is.not.empty;
        expect(res.body.detail[0].loc).to.deep.equal(['query', 'depth']);
      }
    });

    it('answers 404 not_found for a missing node, a node of another branch, a missing or invisible branch', async () => {
      NOT_FOUND(await subtree(uuid()));
      NOT_FOUND(await w.user.api.get(`/v1/branches/${w.mainId}/subtree/${n.core.id}`)); // only on the working branch
      NOT_FOUND(await w.user.api.get(`/v1/branches/${uuid()}/subtree/${n.core.id}`));
      const stranger = await newUser();
      NOT_FOUND(await stranger.api.get(`/v1/branches/${w.branchId}/subtree/${n.core.id}`));
    });

    it('does not set last_opened_at (only full reads do)', async () => {
      expect(await lastOpened(w.user, w.projectId)).to.equal(null);
      await subtree(n.core.id);
      expect(await lastOpened(w.user, w.projectId)).to.equal(null);
    });
  });

  describe('subtree edges and cross_boundary_edges (§4.11)', () => {
    it('splits wires into those among the returned nodes and those with exactly one endpoint inside', async () => {
      const w = await workspace(await newUser());
      const n = await build(w, [
        ['root', 'root', null, 'boundary'],
        ['a', 'a', 'root'],
        ['b', 'b', 'root', 'boundary'],
        ['deep', 'deep', 'b'],
        ['x', 'x', null],
        ['y', 'y', null],
      ]);
      const e = {
        ab: uuid(), rootA: uuid(), selfA: uuid(), // both ends returned
        xA: uuid(), bX: uuid(), deepA: uuid(), xRoot: uuid(), unpinned: uuid(), dangling: uuid(), // one end returned
        xy: uuid(), deepDeep: uuid(), // no end returned at depth 1
      };
      await w.apply([
        wire(n.a, n.b, e.ab),
        addEdge(n.root.out.id, n.a.in.id, e.rootA),
        wire(n.a, n.a, e.selfA),
        wire(n.x, n.a, e.xA),
        wire(n.b, n.x, e.bX),
        wire(n.deep, n.a, e.deepA),
        wire(n.x, n.root, e.xRoot),
        addEdge(n.a.out.id, null, e.unpinned),
        addEdge(uuid(), n.b.in.id, e.dangling),
        wire(n.x, n.y, e.xy),
        wire(n.deep, n.deep, e.deepDeep),
      ]);
      const body = (await w.user.api.get(`/v1/branches/${w.branchId}/subtree/${n.root.id}`)).body;
      expect(ids(body.edges)).to.deep.equal([e.ab, e.rootA, e.selfA].sort());
      expect(ids(body.cross_boundary_edges)).to.deep.equal([e.xA, e.bX, e.deepA, e.xRoot, e.unpinned, e.dangling].sort());
      const ab = body.edges.find((x: { id: string }) => x.id === e.ab);
      expect(ab).to.deep.equal({ id: e.ab, source: n.a.id, source_handle: n.a.out.id, target: n.b.id, target_handle: n.b.in.id });
      const dangling = body.cross_boundary_edges.find((x: { id: string }) => x.id === e.dangling);
      expect(dangling.source).to.equal(null);
      expect(dangling.target).to.equal(n.b.id);
      // One level deeper, deep is returned: deep->a moves to edges, deep->deep appears.
      const d2 = (await w.user.api.get(`/v1/branches/${w.branchId}/subtree/${n.root.id}?depth=2`)).body;
      expect(ids(d2.edges)).to.deep.equal([e.ab, e.rootA, e.selfA, e.deepA, e.deepDeep].sort());
      expect(ids(d2.cross_boundary_edges)).to.deep.equal([e.xA, e.bX, e.xRoot, e.unpinned, e.dangling].sort());
    });
  });

  describe('paths and unaddressable (§2.12)', () => {
    it('gives empty_name to a nameless node and everything below it', async () => {
      const w = await workspace(await newUser());
      const n = await build(w, [
        ['top', 'top', null, 'boundary'],
        ['blank', '', 'top', 'boundary'],
        ['under', 'under', 'blank'],
        ['named', 'named', 'top'],
      ]);
      const body = (await w.user.api.get(`/v1/branches/${w.branchId}/subtree/${n.top.id}?depth=2`)).body;
      expect(body.paths).to.deep.equal({ [n.top.id]: 'top', [n.named.id]: 'top.named' });
      expect(body.unaddressable).to.deep.equal({ [n.blank.id]: 'empty_name', [n.under.id]: 'empty_name' });
    });

    it('gives reserved_separator when a name on the chain contains a dot, ancestors above the root included', async () => {
      const w = await workspace(await newUser());
      const n = await build(w, [
        ['top', 'api.v1', null, 'boundary'],
        ['mid', 'handlers', 'top', 'boundary'],
        ['leaf', 'get', 'mid'],
        ['dotted', 'v1.2', 'mid'],
      ]);
      const body = (await w.user.api.get(`/v1/branches/${w.branchId}/subtree/${n.mid.id}`)).body;
      expect(body.paths).to.deep.equal({});
      expect(body.unaddressable).to.deep.equal({
        [n.mid.id]: 'reserved_separator',
        [n.leaf.id]: 'reserved_separator',
        [n.dotted.id]: 'reserved_separator',
      });
    });

    it('gives ambiguous to every returned node rendering the same path (duplicate names forced by a fixture)', async () => {
      const w = await workspace(await newUser());
      const n = await build(w, [
        ['top', 'top', null, 'boundary'],
        ['one', 'twin', 'top'],
        ['two', 'other', 'top'],
        ['three', 'third', 'top'],
      ]);
      await forceNodeName(w.branchId, n.two.id, 'twin'); // the API refuses duplicate sibling names (§2.9.1)
      const body = (await w.user.api.get(`/v1/branches/${w.branchId}/subtree/${n.top.id}`)).body;
      expect(body.paths).to.deep.equal({ [n.top.id]: 'top', [n.three.id]: 'top.third' });
      expect(body.unaddressable).to.deep.equal({ [n.one.id]: 'ambiguous', [n.two.id]: 'ambiguous' });
      // Ambiguity is among returned nodes only: alone, each twin has its path.
      const nb = (await w.user.api.get(`/v1/branches/${w.branchId}/node/${n.one.id}`)).body;
      expect(nb.paths).to.deep.equal({ [n.one.id]: 'top.twin' });
    });
  });

  describe('neighborhood (§4.12)', () => {
    it('returns the node, every node one wire away in either direction, and those wires', async () => {
      const w = await workspace(await newUser());
      const n = await build(w, [
        ['box', 'box', null, 'boundary'],
        ['center', 'center', 'box'],
        ['up', 'up', null],
        ['down', 'down', 'box'],
        ['far', 'far', null],
        ['lonely', 'lonely', null],
      ]);
      const e = { in1: uuid(), in2: uuid(), out: uuid(), self: uuid(), loose: uuid(), beyond: uuid() };
      await w.apply([
        wire(n.up, n.center, e.in1),
        wire(n.up, n.center, e.in2),
        wire(n.center, n.down, e.out),
        wire(n.center, n.center, e.self),
        addEdge(null, n.center.in.id, e.loose),
        wire(n.down, n.far, e.beyond),
      ]);
      const res = await w.user.api.get(`/v1/branches/${w.branchId}/node/${n.center.id}`);
      expect(res.status).to.equal(200);
      const body = res.body;
      expect(Object.keys(body).sort()).to.deep.equal(['branch', 'edges', 'neighbors', 'node', 'paths', 'project_id', 'unaddressable', 'version']);
      expect(body).to.deep.include({ branch: { id: w.branchId, version: w.version }, project_id: w.projectId, version: '1.0.0' });
      expect(body.node).to.deep.include({ id: n.center.id, kind: 'behavior', parent_id: n.box.id });
      expect(body.neighbors.map((x: { id: string }) => x.id)).to.deep.equal([n.up.id, n.down.id].sort());
      expect(body.edges.map((x: { id: string }) => x.id)).to.deep.equal([e.in1, e.in2, e.out, e.self, e.loose].sort());
      expect(body.edges.find((x: { id: string }) => x.id === e.loose)).to.deep.equal({
        id: e.loose, source: null, source_handle: null, target: n.center.id, target_handle: n.center.in.id,
      });
      expect(body.paths).to.deep.equal({ [n.center.id]: 'box.center', [n.up.id]: 'up', [n.down.id]: 'box.down' });
      expect(body.unaddressable).to.deep.equal({});

      const alone = (await w.user.api.get(`/v1/branches/${w.branchId}/node/${n.lonely.id}`)).body;
      expect(alone).to.deep.include({ neighbors: [], edges: [], paths: { [n.lonely.id]: 'lonely' }, unaddressable: {} });
    });

    it('reports unaddressable neighbors, answers 404 for missing nodes and branches, leaves last_opened_at', async () => {
      const user = await newUser();
      const w = await workspace(user);
      const n = await build(w, [
        ['blank', '', null, 'boundary'],
        ['inner', 'inner', 'blank'],
        ['node', 'node', null],
      ]);
      await w.apply([wire(n.inner, n.node)]);
      const body = (await user.api.get(`/v1/branches/${w.branchId}/node/${n.node.id}`)).body;
      expect(body.paths).to.deep.equal({ [n.node.id]: 'node' });
      expect(body.unaddressable).to.deep.equal({ [n.inner.id]: 'empty_name' });
      NOT_FOUND(await user.api.get(`/v1/branches/${w.branchId}/node/${uuid()}`));
      NOT_FOUND(await user.api.get(`/v1/branches/${w.mainId}/node/${n.node.id}`));
      NOT_FOUND(await user.api.get(`/v1/branches/${uuid()}/node/${n.node.id}`));
      NOT_FOUND(await (await newUser()).api.get(`/v1/branches/${w.branchId}/node/${n.node.id}`));
      expect(await lastOpened(user, w.projectId)).to.equal(null);
    });
  });

  describe('boundary view on main (§4.13)', () => {
    let owner: TestUser;
    let w: Workspace;
    let n: Record<'outer' | 'b' | 'c1' | 'c2' | 'sub' | 'g' | 'o1' | 'o2', Built>;
    const e = {
      intoOwn: uuid(), ownOut: uuid(), ownInner: uuid(), ownToChild: uuid(), childToOwn: uuid(), intoGrandchild: uuid(),
      unpinned: uuid(), dangling: uuid(), internal: uuid(), deepInternal: uuid(), outside: uuid(),
    };
    const view = (id: string, user: TestUser = owner, project = w.projectId) => user.api.get(`/v1/graph/${project}/boundary/${id}`);

    before(async () => {
      owner = await newUser();
      w = await workspace(owner);
      n = await build(w, [
        ['outer', 'outer', null, 'boundary'],
        ['b', 'b', 'outer', 'boundary'],
        ['c1', 'c1', 'b'],
        ['c2', 'c2', 'b'],
        ['sub', 'sub', 'b', 'boundary'],
        ['g', 'g', 'sub'],
        ['o1', 'o1', 'outer'],
        ['o2', 'o2', null],
      ]);
      await w.apply([
        wire(n.o1, n.b, e.intoOwn), // outside -> the boundary's own input
        wire(n.b, n.o2, e.ownOut), // the boundary's own output -> outside
        wire(n.b, n.b, e.ownInner), // own output -> own input
        wire(n.b, n.c1, e.ownToChild), // own output -> a child, both inside: on the boundary's port
        wire(n.c2, n.b, e.childToOwn), // a child -> own input, both inside: on the boundary's port
        wire(n.o1, n.g, e.intoGrandchild), // crosses the perimeter down to a grandchild
        addEdge(n.c1.out.id, null, e.unpinned), // one end inside, the other nowhere
        addEdge(n.g.out.id, uuid(), e.dangling), // one end inside, the other dangling
        wire(n.c1, n.c2, e.internal), // inside only
        wire(n.g, n.c2, e.deepInternal), // inside only, across levels
        wire(n.o1, n.o2, e.outside), // outside only
      ]);
      await copyOntoMain(w.branchId, w.mainId);
    });

    it('returns the node, its direct children and the wires at its perimeter, read on main', async () => {
      const res = await view(n.b.id);
      expect(res.status).to.equal(200);
      const body = res.body;
      expect(Object.keys(body).sort()).to.deep.equal(['boundary', 'branch', 'children', 'edges', 'paths', 'project_id', 'unaddressable', 'version']);
      expect(body).to.deep.include({ branch: { id: w.mainId, version: 0 }, project_id: w.projectId, version: '1.0.0' });
      expect(body.boundary).to.deep.include({ id: n.b.id, kind: 'boundary', parent_id: n.outer.id });
      expect(body.children.map((x: { id: string }) => x.id)).to.deep.equal([n.c1.id, n.c2.id, n.sub.id].sort());
      expect(ids(body.edges)).to.deep.equal(
        [e.intoOwn, e.ownOut, e.ownInner, e.ownToChild, e.childToOwn, e.intoGrandchild, e.unpinned, e.dangling].sort(),
      );
      expect(body.edges.find((x: { id: string }) => x.id === e.intoGrandchild)).to.deep.equal({
        id: e.intoGrandchild, source: n.o1.id, source_handle: n.o1.out.id, target: n.g.id, target_handle: n.g.in.id,
      });
      expect(body.paths).to.deep.equal({
        [n.b.id]: 'outer.b',
        [n.c1.id]: 'outer.b.c1',
        [n.c2.id]: 'outer.b.c2',
        [n.sub.id]: 'outer.b.sub',
      });
      expect(body.unaddressable).to.deep.equal({});
    });

    it('answers a node of another kind too: no children, its wires leaving it', async () => {
      const body = (await view(n.c1.id)).body;
      expect(body.boundary.id).to.equal(n.c1.id);
      expect(body.children).to.deep.equal([]);
      expect(ids(body.edges)).to.deep.equal([e.ownToChild, e.unpinned, e.internal].sort());
      expect(body.paths).to.deep.equal({ [n.c1.id]: 'outer.b.c1' });
    });

    it('is readable by a viewer; 404 for nodes not on main, missing or invisible projects', async () => {
      const viewer = await newUser();
      await grant(w.projectId, viewer, 'viewer');
      expect((await view(n.b.id, viewer)).status).to.equal(200);
      const onlyOnBranch = (await build(w, [['x', 'x', null]])).x;
      NOT_FOUND(await view(onlyOnBranch.id));
      NOT_FOUND(await view(uuid()));
      NOT_FOUND(await view(n.b.id, owner, uuid()));
      NOT_FOUND(await view(n.b.id, await newUser()));
      expect(await lastOpened(owner, w.projectId)).to.equal(null);
    });
  });
});
