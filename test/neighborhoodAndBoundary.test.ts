/**
 * Scoped reads through HTTP, part 2: neighborhood and boundary view on main,
 * with paths and unaddressable. Every response is checked against the
 * OpenAPI document by the client.
 */
import { expect } from 'chai';
import { addEdge, uuid, workspace, Workspace } from './support/graphBuilders';
import { grant, newUser, TestUser } from './support/harness';
import {
  build,
  Built,
  ids,
  lastOpened,
  NODE_NOT_FOUND,
  expectNotFound,
  forkOf,
  wire,
} from './support/scopedReadSupport';

describe('scoped reads: neighborhood and boundary view', function () {
  this.timeout(60_000); // each case builds its graph through several HTTP writes
  describe('neighborhood', () => {
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
      const e = {
        in1: uuid(),
        in2: uuid(),
        out: uuid(),
        self: uuid(),
        loose: uuid(),
        beyond: uuid(),
      };
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
      expect(Object.keys(body).sort()).to.deep.equal([
        'branch',
        'edges',
        'neighbors',
        'node',
        'paths',
        'project_id',
        'unaddressable',
        'version',
      ]);
      expect(body).to.deep.include({
        branch: { id: w.branchId, version: w.version },
        project_id: w.projectId,
        version: '1.0.0',
      });
      expect(body.node).to.deep.include({ id: n.center.id, kind: 'behavior', parent_id: n.box.id });
      expect(body.neighbors.map((x: { id: string }) => x.id)).to.deep.equal(
        [n.up.id, n.down.id].sort(),
      );
      expect(body.edges.map((x: { id: string }) => x.id)).to.deep.equal(
        [e.in1, e.in2, e.out, e.self, e.loose].sort(),
      );
      expect(body.edges.find((x: { id: string }) => x.id === e.loose)).to.deep.equal({
        id: e.loose,
        source: null,
        source_handle: null,
        target: n.center.id,
        target_handle: n.center.in.id,
      });
      expect(body.paths).to.deep.equal({
        [n.center.id]: 'box.center',
        [n.up.id]: 'up',
        [n.down.id]: 'box.down',
      });
      expect(body.unaddressable).to.deep.equal({});

      const alone = (await w.user.api.get(`/v1/branches/${w.branchId}/node/${n.lonely.id}`)).body;
      expect(alone).to.deep.include({
        neighbors: [],
        edges: [],
        paths: { [n.lonely.id]: 'lonely' },
        unaddressable: {},
      });
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
      expectNotFound(await user.api.get(`/v1/branches/${w.branchId}/node/${uuid()}`));
      expectNotFound(await user.api.get(`/v1/branches/${w.mainId}/node/${n.node.id}`));
      expectNotFound(await user.api.get(`/v1/branches/${uuid()}/node/${n.node.id}`));
      expectNotFound(
        await (await newUser()).api.get(`/v1/branches/${w.branchId}/node/${n.node.id}`),
      );
      expect(await lastOpened(user, w.projectId)).to.equal(null);
    });
  });

  describe('boundary view on main', () => {
    let owner: TestUser;
    let w: Workspace;
    let n: Record<'outer' | 'b' | 'c1' | 'c2' | 'sub' | 'g' | 'o1' | 'o2' | 'dotted', Built>;
    const e = {
      intoOwn: uuid(),
      ownOut: uuid(),
      ownInner: uuid(),
      ownToChild: uuid(),
      childToOwn: uuid(),
      intoGrandchild: uuid(),
      unpinned: uuid(),
      dangling: uuid(),
      internal: uuid(),
      deepInternal: uuid(),
      outside: uuid(),
    };
    const view = (id: string, user: TestUser = owner, project = w.projectId) =>
      user.api.get(`/v1/graph/${project}/boundary/${id}`);

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
        ['dotted', 'c.3', 'b'],
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
      // Main changes only by merge: the fork has not moved main, so this fast-forwards.
      const merged = await owner.api.post(`/v1/branches/${w.branchId}/merge`, {
        expected_version: w.version,
      });
      expect(merged.status, JSON.stringify(merged.body)).to.equal(200);
      expect(merged.body.main_branch).to.deep.equal({ id: w.mainId, version: 1 });
    });

    it('returns the node, its direct children and the wires at its perimeter, read on main', async () => {
      const res = await view(n.b.id);
      expect(res.status).to.equal(200);
      const body = res.body;
      expect(Object.keys(body).sort()).to.deep.equal([
        'boundary',
        'branch',
        'children',
        'edges',
        'paths',
        'project_id',
        'unaddressable',
        'version',
      ]);
      expect(body).to.deep.include({
        branch: { id: w.mainId, version: 1 },
        project_id: w.projectId,
        version: '1.0.0',
      });
      expect(body.boundary).to.deep.include({
        id: n.b.id,
        kind: 'boundary',
        parent_id: n.outer.id,
      });
      expect(body.children.map((x: { id: string }) => x.id)).to.deep.equal(
        [n.c1.id, n.c2.id, n.sub.id, n.dotted.id].sort(),
      );
      expect(ids(body.edges)).to.deep.equal(
        [
          e.intoOwn,
          e.ownOut,
          e.ownInner,
          e.ownToChild,
          e.childToOwn,
          e.intoGrandchild,
          e.unpinned,
          e.dangling,
        ].sort(),
      );
      expect(body.edges.find((x: { id: string }) => x.id === e.intoGrandchild)).to.deep.equal({
        id: e.intoGrandchild,
        source: n.o1.id,
        source_handle: n.o1.out.id,
        target: n.g.id,
        target_handle: n.g.in.id,
      });
      expect(body.paths).to.deep.equal({
        [n.b.id]: 'outer.b',
        [n.c1.id]: 'outer.b.c1',
        [n.c2.id]: 'outer.b.c2',
        [n.sub.id]: 'outer.b.sub',
      });
      expect(body.unaddressable).to.deep.equal({ [n.dotted.id]: 'reserved_separator' });
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
      // main's content is readable through the branch routes too, by any member
      const sub = (await viewer.api.get(`/v1/branches/${w.mainId}/subtree/${n.b.id}`)).body;
      expect(sub.branch).to.deep.equal({ id: w.mainId, version: 1 });
      expect(ids(sub.nodes)).to.deep.equal([n.c1.id, n.c2.id, n.sub.id, n.dotted.id].sort());
      const nb = (await viewer.api.get(`/v1/branches/${w.mainId}/node/${n.o1.id}`)).body;
      expect(ids(nb.neighbors)).to.deep.equal([n.b.id, n.g.id, n.o2.id].sort());
      const fresh = await forkOf(owner, w.projectId, 'later');
      const onlyOnBranch = (await build(fresh, [['x', 'x', null]])).x;
      const forked = await owner.api.get(`/v1/branches/${fresh.branchId}/subtree/${n.b.id}`);
      expect(forked.status).to.equal(200); // forked from the merged main, so it holds b too
      const missing = await view(onlyOnBranch.id);
      expectNotFound(missing);
      expect(missing.body).to.deep.equal(NODE_NOT_FOUND);
      expectNotFound(await view(uuid()));
      expectNotFound(await view(n.b.id, owner, uuid()));
      expectNotFound(await view(n.b.id, await newUser()));
      expect(await lastOpened(owner, w.projectId)).to.equal(null);
    });
  });
});
