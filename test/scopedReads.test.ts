/**
 * Scoped reads through HTTP, part 1: subtree with paths and unaddressable.
 * Part 2 (neighborhood, boundary view) is in neighborhoodAndBoundary.test.ts.
 * Every response is checked against the OpenAPI document by the client.
 */
import { expect } from 'chai';
import { addEdge, uuid, workspace, Workspace } from './support/graphBuilders';
import { newUser } from './support/harness';
import {
  build,
  Built,
  ids,
  lastOpened,
  NODE_NOT_FOUND,
  expectNotFound,
  forceNodeName,
  wire,
} from './support/scopedReadSupport';

describe('scoped reads: subtree', function () {
  this.timeout(60_000); // each case builds its graph through several HTTP writes
  describe('subtree', () => {
    let w: Workspace;
    let n: Record<'app' | 'core' | 'worker' | 'job' | 'step' | 'io' | 'outside', Built>;
    const subtree = (id: string, query = '') =>
      w.user.api.get(`/v1/branches/${w.branchId}/subtree/${id}${query}`);

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
      expect(Object.keys(body).sort()).to.deep.equal([
        'branch',
        'cross_boundary_edges',
        'depth',
        'edges',
        'nodes',
        'paths',
        'project_id',
        'root',
        'truncated',
        'unaddressable',
        'version',
      ]);
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
      expect((await subtree(n.core.id, '?depth=1')).body).to.deep.equal(body);
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

    it('stops at depth 32 with truncated true when the tree goes deeper', async () => {
      const deep = await workspace(await newUser());
      const chain = Array.from({ length: 35 }, () => uuid());
      await deep.apply(
        chain.map((id, i) => ({
          type: 'add_node',
          node: {
            id,
            kind: 'boundary',
            parent_id: i === 0 ? null : chain[i - 1],
            data: { name: `l${i}` },
          },
        })),
      );
      const res = await deep.user.api.get(
        `/v1/branches/${deep.branchId}/subtree/${chain[0]}?depth=32`,
      );
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ depth: 32, truncated: true });
      expect(ids(res.body.nodes)).to.deep.equal(chain.slice(1, 33).sort());
      expect(res.body.paths[chain[32]]).to.equal(
        chain
          .slice(0, 33)
          .map((_, i) => `l${i}`)
          .join('.'),
      );
    });

    it('answers a leaf root with no nodes and truncated false', async () => {
      const body = (await subtree(n.step.id, '?depth=5')).body;
      expect(body.root.id).to.equal(n.step.id);
      expect(body).to.deep.include({
        nodes: [],
        edges: [],
        cross_boundary_edges: [],
        depth: 5,
        truncated: false,
      });
      expect(body.paths).to.deep.equal({ [n.step.id]: 'app.core.worker.job.step' });
    });

    it('refuses depth 0, 33 and a non-integer with 422 in the array form', async () => {
      for (const q of ['?depth=0', '?depth=33', '?depth=two', '?depth=1.5']) {
        const res = await subtree(n.core.id, q);
        expect(res.status, q).to.equal(422);
        expect(res.body.detail).to.be.an('array').with.length.greaterThan(0);
        expect(res.body.detail[0].loc).to.deep.equal(['query', 'depth']);
      }
    });

    it('answers 404 not_found for a missing node, a node of another branch, a missing or invisible branch', async () => {
      const missing = await subtree(uuid());
      expectNotFound(missing);
      expect(missing.body).to.deep.equal(NODE_NOT_FOUND);
      expectNotFound(await w.user.api.get(`/v1/branches/${w.mainId}/subtree/${n.core.id}`)); // only on the working branch
      expectNotFound(await w.user.api.get(`/v1/branches/${uuid()}/subtree/${n.core.id}`));
      const stranger = await newUser();
      expectNotFound(await stranger.api.get(`/v1/branches/${w.branchId}/subtree/${n.core.id}`));
    });

    it('does not set last_opened_at (only full reads do)', async () => {
      expect(await lastOpened(w.user, w.projectId)).to.equal(null);
      await subtree(n.core.id);
      expect(await lastOpened(w.user, w.projectId)).to.equal(null);
    });
  });

  describe('subtree edges and cross_boundary_edges', () => {
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
        ab: uuid(),
        rootA: uuid(),
        selfA: uuid(), // both ends returned
        xA: uuid(),
        bX: uuid(),
        deepA: uuid(),
        xRoot: uuid(),
        unpinned: uuid(),
        dangling: uuid(), // one end returned
        xy: uuid(),
        deepDeep: uuid(), // no end returned at depth 1
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
      expect(ids(body.cross_boundary_edges)).to.deep.equal(
        [e.xA, e.bX, e.deepA, e.xRoot, e.unpinned, e.dangling].sort(),
      );
      const ab = body.edges.find((x: { id: string }) => x.id === e.ab);
      expect(ab).to.deep.equal({
        id: e.ab,
        source: n.a.id,
        source_handle: n.a.out.id,
        target: n.b.id,
        target_handle: n.b.in.id,
      });
      // a wire among the returned nodes names the nodes at its ends, the root's own
      // ports and a wire from a node to itself included
      const ends = (list: { id: string; source: string; target: string }[], id: string) => {
        const found = list.find((x) => x.id === id);
        return found && [found.source, found.target];
      };
      expect(ends(body.edges, e.rootA)).to.deep.equal([n.root.id, n.a.id]);
      expect(ends(body.edges, e.selfA)).to.deep.equal([n.a.id, n.a.id]);
      const dangling = body.cross_boundary_edges.find((x: { id: string }) => x.id === e.dangling);
      expect(dangling.source).to.equal(null);
      expect(dangling.target).to.equal(n.b.id);
      // One level deeper, deep is returned: deep->a moves to edges, deep->deep appears.
      const d2 = (await w.user.api.get(`/v1/branches/${w.branchId}/subtree/${n.root.id}?depth=2`))
        .body;
      expect(ids(d2.edges)).to.deep.equal([e.ab, e.rootA, e.selfA, e.deepA, e.deepDeep].sort());
      expect(ends(d2.edges, e.deepA)).to.deep.equal([n.deep.id, n.a.id]);
      expect(ends(d2.edges, e.deepDeep)).to.deep.equal([n.deep.id, n.deep.id]);
      expect(ids(d2.cross_boundary_edges)).to.deep.equal(
        [e.xA, e.bX, e.xRoot, e.unpinned, e.dangling].sort(),
      );
    });
  });

  describe('paths and unaddressable', () => {
    it('gives empty_name to a nameless node and everything below it', async () => {
      const w = await workspace(await newUser());
      const n = await build(w, [
        ['top', 'top', null, 'boundary'],
        ['blank', '', 'top', 'boundary'],
        ['under', 'under', 'blank'],
        ['named', 'named', 'top'],
      ]);
      const body = (await w.user.api.get(`/v1/branches/${w.branchId}/subtree/${n.top.id}?depth=2`))
        .body;
      expect(body.paths).to.deep.equal({ [n.top.id]: 'top', [n.named.id]: 'top.named' });
      expect(body.unaddressable).to.deep.equal({
        [n.blank.id]: 'empty_name',
        [n.under.id]: 'empty_name',
      });
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
      await forceNodeName(w.branchId, n.two.id, 'twin'); // the API refuses duplicate sibling names
      const body = (await w.user.api.get(`/v1/branches/${w.branchId}/subtree/${n.top.id}`)).body;
      expect(body.paths).to.deep.equal({ [n.top.id]: 'top', [n.three.id]: 'top.third' });
      expect(body.unaddressable).to.deep.equal({
        [n.one.id]: 'ambiguous',
        [n.two.id]: 'ambiguous',
      });
      // Ambiguity is among returned nodes only: alone, each twin has its path.
      const nb = (await w.user.api.get(`/v1/branches/${w.branchId}/node/${n.one.id}`)).body;
      expect(nb.paths).to.deep.equal({ [n.one.id]: 'top.twin' });
    });
  });
});
