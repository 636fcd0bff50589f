/**
 * rebaseBranch: a working branch moved onto main's current version with its own changes
 * on top, conflicts resolved in graph terms (ConflictResolution), refusals, and the
 * branch's history across a rebase.
 */
import { expect } from 'chai';
import { newKeyFor } from './support/harness';
import { addEdge, addNode, port, uuid } from './support/graphBuilders';
import { conflictsOf } from './support/mergeWorkspace';
import { behind, Behind, rebase, rebaseOk, resolve } from './support/rebaseWorkspace';

const update = (nodeId: string, after: Record<string, unknown>) => ({
  type: 'update_node_data',
  node_id: nodeId,
  after,
});

/** The node `id` of a graph read, or undefined. */
const nodeOf = (graph: any, id: string) => graph.nodes.find((n: any) => n.id === id);

/** The conflicts a rebase without resolutions answers: those of the merge preview, exactly. */
async function conflictsOfRebase(r: Behind): Promise<any[]> {
  const before = await r.b.graph();
  const conflicts = conflictsOf(await rebase(r.p, r.b));
  expect(conflicts).to.deep.equal((await r.b.preview()).conflicts);
  expect(await r.b.graph()).to.deep.equal(before);
  return conflicts;
}

describe('rebaseBranch', function () {
  this.timeout(120_000);

  describe('without conflicts', () => {
    it('moves the base to main, advances the version by one, and the diff lists only the branch’s changes', async () => {
      const fromMain = uuid();
      const own = uuid();
      const r = await behind(
        [],
        [addNode({ id: fromMain, data: { name: 'fromMain' } })],
        [addNode({ id: own, data: { name: 'own' } })],
      );
      const before = await r.b.diff();
      expect(before.nodes.removed).to.deep.equal([fromMain]);
      const dry = await rebaseOk(r.p, r.b, { dry_run: true });
      expect(dry).to.deep.include({ rebased: false, dry_run: true, can_rebase: true });
      expect(dry.counts.nodes).to.deep.equal({ added: 1, changed: 0, removed: 0 });
      expect(dry.branch.version).to.equal(1);
      expect(await r.b.graph()).to.deep.include({ branch: before.branch });
      const done = await rebaseOk(r.p, r.b);
      // b forked at main's version 0; a's merge made main's version 1
      expect(done).to.deep.include({
        rebased: true,
        dry_run: false,
        previous_base_main_version: 0,
      });
      expect(done.branch.version).to.equal(2);
      expect(done.branch.base_main_version).to.equal(done.main_branch.version);
      expect(done.main_branch.version).to.equal(1);
      expect(done.counts.nodes).to.deep.equal({ added: 1, changed: 0, removed: 0 });
      const diff = await r.b.diff();
      expect(diff.nodes).to.deep.equal({ added: [own], removed: [], changed: [] });
      const graph = await r.b.graph();
      expect(graph.nodes.map((n: any) => n.id).sort()).to.deep.equal([fromMain, own].sort());
      const trail = await r.p.user.api.get(`/v1/branches/${r.b.id}/changes`);
      expect(trail.status).to.equal(200);
      const [entry] = trail.body.changes;
      expect(entry).to.deep.include({ version: 2, kind: 'rebase' });
      expect(entry.rebase).to.deep.equal({
        base_main_version: 1,
        previous_base_main_version: 0,
        resolutions: [],
      });
      expect(entry.deltas.map((d: any) => d.type)).to.deep.equal(['add_node']);
    });

    it('a branch already on main’s version answers rebased false and changes nothing', async () => {
      const r = await behind([], [addNode({ data: { name: 'm' } })], []);
      await rebaseOk(r.p, r.b);
      const again = await rebaseOk(r.p, r.b);
      expect(again).to.deep.include({ rebased: false });
      expect(again.branch.version).to.equal(1);
    });

    it('keeps main’s changes to fields the branch did not write of a node both changed', async () => {
      const n = uuid();
      const r = await behind(
        [addNode({ id: n, data: { name: 'n' } })],
        [update(n, { description: 'main' })],
        [update(n, { constraints: ['c'] })],
      );
      await rebaseOk(r.p, r.b);
      const node = nodeOf(await r.b.graph(), n);
      expect(node.data).to.include({ description: 'main' });
      expect(node.data.constraints).to.deep.equal(['c']);
      expect((await r.b.mergeOk()).mode).to.equal('fast_forward');
      const merged = nodeOf(await r.p.main(), n);
      expect(merged.data).to.include({ description: 'main' });
      expect(merged.data.constraints).to.deep.equal(['c']);
    });
  });

  describe('resolutions, per conflict reason', () => {
    async function modified(): Promise<{ r: Behind; n: string; conflict: any }> {
      const n = uuid();
      const r = await behind(
        [addNode({ id: n, data: { name: 'n', description: 'base' } })],
        [update(n, { description: 'on main' })],
        [update(n, { description: 'on branch' })],
      );
      const [conflict] = await conflictsOfRebase(r);
      expect(conflict).to.deep.include({ reason: 'modified_on_both', fields: ['description'] });
      return { r, n, conflict };
    }

    for (const [choice, value, expected] of [
      ['main', undefined, 'on main'],
      ['branch', undefined, 'on branch'],
      ['value', 'agreed', 'agreed'],
    ] as const) {
      it(`modified_on_both: ${choice}`, async () => {
        const { r, n, conflict } = await modified();
        const done = await rebaseOk(r.p, r.b, { resolutions: [resolve(conflict, choice, value)] });
        expect(done.resolutions).to.have.length(1);
        expect(nodeOf(await r.b.graph(), n).data.description).to.equal(expected);
        await r.b.mergeOk();
        expect(nodeOf(await r.p.main(), n).data.description).to.equal(expected);
      });
    }

    async function reparented() {
      const [b1, b2, b3, n] = [uuid(), uuid(), uuid(), uuid()];
      const box = (id: string, name: string) => addNode({ id, kind: 'boundary', data: { name } });
      const r = await behind(
        [
          box(b1, 'b1'),
          box(b2, 'b2'),
          box(b3, 'b3'),
          addNode({ id: n, parent_id: b1, data: { name: 'n' } }),
        ],
        [{ type: 'reparent_node', node_id: n, parent_id: b2 }],
        [{ type: 'reparent_node', node_id: n, parent_id: b3 }],
      );
      const [conflict] = await conflictsOfRebase(r);
      expect(conflict).to.deep.include({
        reason: 'reparent_conflict',
        entity_id: n,
        fields: ['parent_id'],
      });
      return { r, n, b1, b2, b3, conflict };
    }

    it('reparent_conflict: main, branch and a parent of one’s own', async () => {
      for (const pick of ['main', 'branch', 'value'] as const) {
        const { r, n, b1, b2, b3, conflict } = await reparented();
        await rebaseOk(r.p, r.b, { resolutions: [resolve(conflict, pick, b1)] });
        const expected = { main: b2, branch: b3, value: b1 }[pick];
        expect(nodeOf(await r.b.graph(), n).parent_id, pick).to.equal(expected);
      }
    });

    async function rewired() {
      const [src1, src2, inPort] = [port('s1'), port('s2'), port('in')];
      const [e1, e2] = [uuid(), uuid()];
      const r = await behind(
        [
          addNode({ data: { name: 'a', outputs: [src1, src2] } }),
          addNode({ data: { name: 'b', inputs: [inPort] } }),
        ],
        [addEdge(src1.id, inPort.id, e1)],
        [addEdge(src2.id, inPort.id, e2)],
      );
      const [conflict] = await conflictsOfRebase(r);
      expect(conflict).to.deep.include({ reason: 'rewired_on_both', entity_id: inPort.id });
      return { r, e1, e2, conflict };
    }

    it('rewired_on_both: main’s wire, the branch’s, or the one named', async () => {
      for (const pick of ['main', 'branch', 'value'] as const) {
        const { r, e1, e2, conflict } = await rewired();
        await rebaseOk(r.p, r.b, { resolutions: [resolve(conflict, pick, e2)] });
        const edges = (await r.b.graph()).edges.map((e: any) => e.id);
        expect(edges, pick).to.deep.equal(pick === 'main' ? [e1] : [e2]);
      }
    });

    it('name_collision: a new name for the branch’s node; main or branch do not apply (422)', async () => {
      const [fromMain, own] = [uuid(), uuid()];
      const r = await behind(
        [],
        [addNode({ id: fromMain, data: { name: 'same' } })],
        [addNode({ id: own, data: { name: 'same' } })],
      );
      const [conflict] = await conflictsOfRebase(r);
      expect(conflict).to.deep.include({
        reason: 'name_collision',
        entity_id: own,
        fields: ['name'],
      });
      const refused = await rebase(r.p, r.b, { resolutions: [resolve(conflict, 'main')] });
      expect(refused.status).to.equal(422);
      expect(refused.body.detail).to.deep.include({
        code: 'invalid_resolution',
        resolution_index: 0,
        field: 'resolutions[0].choice',
      });
      await rebaseOk(r.p, r.b, { resolutions: [resolve(conflict, 'value', 'mine')] });
      const graph = await r.b.graph();
      expect(nodeOf(graph, own).data.name).to.equal('mine');
      expect(nodeOf(graph, fromMain).data.name).to.equal('same');
      await r.b.mergeOk();
    });

    async function deletedOnMain() {
      const n = uuid();
      const r = await behind(
        [addNode({ id: n, data: { name: 'n' } })],
        [{ type: 'delete_node', node_id: n }],
        [update(n, { name: 'renamed' })],
      );
      const [conflict] = await conflictsOfRebase(r);
      expect(conflict).to.deep.include({ reason: 'deleted_on_main', entity_id: n });
      return { r, n, conflict };
    }

    it('deleted_on_main: main and drop leave it deleted; branch and keep keep it', async () => {
      for (const [pick, value, kept] of [
        ['main', undefined, false],
        ['value', 'drop', false],
        ['branch', undefined, true],
        ['value', 'keep', true],
      ] as const) {
        const { r, n, conflict } = await deletedOnMain();
        await rebaseOk(r.p, r.b, { resolutions: [resolve(conflict, pick, value)] });
        const node = nodeOf(await r.b.graph(), n);
        expect(node !== undefined, `${pick} ${value}`).to.equal(kept);
        if (kept) expect(node.data.name).to.equal('renamed');
        await r.b.mergeOk();
        expect(nodeOf(await r.p.main(), n) !== undefined).to.equal(kept);
      }
    });

    async function deletedOnBranch() {
      const n = uuid();
      const r = await behind(
        [addNode({ id: n, data: { name: 'n' } })],
        [update(n, { description: 'main wrote' })],
        [{ type: 'delete_node', node_id: n }],
      );
      const [conflict] = await conflictsOfRebase(r);
      expect(conflict).to.deep.include({
        reason: 'deleted_on_branch_modified_on_main',
        entity_id: n,
      });
      return { r, n, conflict };
    }

    it('deleted_on_branch_modified_on_main: main and keep keep main’s node; branch and drop delete it', async () => {
      for (const [pick, value, kept] of [
        ['main', undefined, true],
        ['value', 'keep', true],
        ['branch', undefined, false],
        ['value', 'drop', false],
      ] as const) {
        const { r, n, conflict } = await deletedOnBranch();
        await rebaseOk(r.p, r.b, { resolutions: [resolve(conflict, pick, value)] });
        const node = nodeOf(await r.b.graph(), n);
        expect(node !== undefined, `${pick} ${value}`).to.equal(kept);
        if (kept) expect(node.data.description).to.equal('main wrote');
        await r.b.mergeOk();
      }
    });
  });

  describe('validated like a batch', () => {
    it('a resolution whose result breaks an invariant is the batch’s 422 delta error; nothing changes', async () => {
      const [box, other, n] = [uuid(), uuid(), uuid()];
      const r = await behind(
        [
          addNode({ id: box, kind: 'boundary', data: { name: 'box' } }),
          addNode({ id: other, kind: 'boundary', data: { name: 'other' } }),
          addNode({ id: n, data: { name: 'n' } }),
        ],
        [{ type: 'reparent_node', node_id: n, parent_id: box }],
        [{ type: 'reparent_node', node_id: n, parent_id: other }],
      );
      const conflicts = await conflictsOfRebase(r);
      const moved = conflicts.find((c) => c.reason === 'reparent_conflict');
      // a behavior node contains nothing: the batch's invalid_parent
      const res = await rebase(r.p, r.b, { resolutions: [resolve(moved, 'value', n)] });
      expect(res.status, JSON.stringify(res.body)).to.equal(422);
      expect(res.body.detail).to.deep.include({ error: 'invalid_parent', entity_id: n });
      expect((await r.b.graph()).branch.version).to.equal(1);
    });

    it('answers the findings the rebase brings to the branch and clears from it', async () => {
      const input = port('in');
      const r = await behind(
        [],
        [addNode({ data: { name: 'fed', inputs: [input] } })],
        [addNode({ data: { name: 'own' } })],
      );
      const done = await rebaseOk(r.p, r.b);
      expect(done.findings_added.map((f: any) => f.code)).to.include('unsatisfied_input');
      expect(done.findings_cleared).to.deep.equal([]);
    });
  });

  describe('refusals', () => {
    it('a conflict left unresolved: 409 merge_conflict listing only those left', async () => {
      const [n, m] = [uuid(), uuid()];
      const r = await behind(
        [addNode({ id: n, data: { name: 'n' } }), addNode({ id: m, data: { name: 'm' } })],
        [update(n, { description: 'main' }), update(m, { description: 'main' })],
        [update(n, { description: 'branch' }), update(m, { description: 'branch' })],
      );
      const conflicts = await conflictsOfRebase(r);
      expect(conflicts).to.have.length(2);
      const left = conflictsOf(
        await rebase(r.p, r.b, { resolutions: [resolve(conflicts[0], 'main')] }),
      );
      expect(left).to.deep.equal([conflicts[1]]);
      expect((await r.b.graph()).branch.version).to.equal(1);
    });

    it('a resolution naming no conflict, or a value the node model refuses: 422 naming it', async () => {
      const n = uuid();
      const r = await behind(
        [addNode({ id: n, data: { name: 'n' } })],
        [update(n, { description: 'main' })],
        [update(n, { description: 'branch' })],
      );
      const [conflict] = await conflictsOfRebase(r);
      const unknown = await rebase(r.p, r.b, {
        resolutions: [resolve(conflict, 'main'), { ...resolve(conflict, 'main'), field: 'status' }],
      });
      expect(unknown.status).to.equal(422);
      expect(unknown.body.detail).to.deep.include({
        code: 'unknown_conflict',
        resolution_index: 1,
      });
      const badValue = await rebase(r.p, r.b, { resolutions: [resolve(conflict, 'value', 42)] });
      expect(badValue.status).to.equal(422);
      expect(badValue.body.detail).to.deep.include({
        code: 'invalid_resolution',
        resolution_index: 0,
        field: 'resolutions[0].value',
      });
      const twice = await rebase(r.p, r.b, {
        resolutions: [resolve(conflict, 'main'), resolve(conflict, 'branch')],
      });
      expect(twice.status).to.equal(422);
      expect(twice.body.detail).to.deep.include({
        code: 'invalid_resolution',
        resolution_index: 1,
      });
      expect((await r.b.graph()).branch.version).to.equal(1);
    });

    it('a stale expected_version: 409 version_conflict', async () => {
      const r = await behind(
        [],
        [addNode({ data: { name: 'm' } })],
        [addNode({ data: { name: 'b' } })],
      );
      const res = await rebase(r.p, r.b, { expected_version: 0 });
      expect(res.status).to.equal(409);
      expect(res.body.detail).to.deep.include({ code: 'version_conflict', current_version: 1 });
    });

    it('a key without graph:write: 403; its dry run answers can_rebase false and writes nothing', async () => {
      const r = await behind(
        [],
        [addNode({ data: { name: 'm' } })],
        [addNode({ data: { name: 'b' } })],
      );
      const reader = await newKeyFor(r.p.user, { scopes: [] });
      const url = `/v1/branches/${r.b.id}/rebase`;
      const refused = await reader.api.post(url, { expected_version: 1 });
      expect(refused.status).to.equal(403);
      expect(refused.body.detail.code).to.equal('insufficient_scope');
      const dry = await reader.api.post(url, { expected_version: 1, dry_run: true });
      expect(dry.status, JSON.stringify(dry.body)).to.equal(200);
      expect(dry.body).to.deep.include({ rebased: false, dry_run: true, can_rebase: false });
      expect(dry.body.counts.nodes.added).to.equal(1);
      expect((await r.b.graph()).branch.version).to.equal(1);
    });

    it('an Idempotency-Key repeats the first answer and rebases once', async () => {
      const r = await behind(
        [],
        [addNode({ data: { name: 'm' } })],
        [addNode({ data: { name: 'b' } })],
      );
      const headers = { 'Idempotency-Key': `rebase-${uuid()}` };
      const first = await rebase(r.p, r.b, {}, headers);
      expect(first.status).to.equal(200);
      const again = await rebase(r.p, r.b, {}, headers);
      expect(again.status).to.equal(200);
      expect(again.headers.get('idempotent-replayed')).to.equal('true');
      expect(again.body.branch.version).to.equal(2);
      expect((await r.b.graph()).branch.version).to.equal(2);
    });
  });

  describe('history across a rebase', () => {
    it('reads pinned before it answer as they did; diff between versions spans it; merge fast-forwards', async () => {
      const [fromMain, own] = [uuid(), uuid()];
      const r = await behind(
        [],
        [addNode({ id: fromMain, data: { name: 'fromMain' } })],
        [addNode({ id: own, data: { name: 'own' } })],
      );
      const url = `/v1/branches/${r.b.id}/graph`;
      const pinnedBefore = (await r.p.user.api.get(`${url}?version=1`)).body;
      await rebaseOk(r.p, r.b);
      const pinnedAfter = (await r.p.user.api.get(`${url}?version=1`)).body;
      expect({ nodes: pinnedAfter.nodes, edges: pinnedAfter.edges }).to.deep.equal({
        nodes: pinnedBefore.nodes,
        edges: pinnedBefore.edges,
      });
      expect(pinnedAfter.nodes.map((n: any) => n.id)).to.deep.equal([own]);
      const sub = await r.p.user.api.get(`/v1/branches/${r.b.id}/top-level?version=1`);
      expect(sub.status).to.equal(200);
      expect(sub.body.nodes.map((n: any) => n.id)).to.deep.equal([own]);
      const across = await r.p.user.api.get(
        `/v1/branches/${r.b.id}/diff?from_version=1&to_version=2`,
      );
      expect(across.status).to.equal(200);
      expect(across.body.nodes).to.deep.equal({ added: [fromMain], removed: [], changed: [] });
      expect((await r.b.mergeOk()).mode).to.equal('fast_forward');
      const main = await r.p.main();
      expect(main.nodes.map((n: any) => n.id).sort()).to.deep.equal([fromMain, own].sort());
    });

    it('reverting a batch from before the rebase undoes it on the rebased branch; one the rebase changed is a revert_conflict', async () => {
      const [shared, own] = [uuid(), uuid()];
      const r = await behind(
        [addNode({ id: shared, data: { name: 'shared' } })],
        [update(shared, { description: 'main' })],
        [addNode({ id: own, data: { name: 'own' } })],
      );
      await r.b.apply([update(shared, { constraints: ['c'] })]); // version 2
      await rebaseOk(r.p, r.b); // version 3
      const revert = (version: number) =>
        r.p.user.api.post(`/v1/branches/${r.b.id}/revert`, {
          version,
          expected_version: r.b.version,
        });
      const conflict = await revert(2);
      expect(conflict.status).to.equal(409);
      expect(conflict.body.detail.code).to.equal('revert_conflict');
      expect(conflict.body.detail.entities[0]).to.deep.include({ id: shared, version: 3 });
      const undone = await revert(1);
      expect(undone.status, JSON.stringify(undone.body)).to.equal(200);
      r.b.version = undone.body.branch.version;
      const graph = await r.b.graph();
      expect(nodeOf(graph, own)).to.equal(undefined);
      expect(nodeOf(graph, shared).data.description).to.equal('main');
      await r.b.mergeOk();
      expect(nodeOf(await r.p.main(), own)).to.equal(undefined);
    });

    it('a branch whose merge only conflicts merges after a rebase that resolved them, also when main moved again', async () => {
      const [n, later] = [uuid(), uuid()];
      const r = await behind(
        [addNode({ id: n, data: { name: 'n' } })],
        [update(n, { description: 'main' })],
        [update(n, { description: 'branch' }), addNode({ data: { name: 'extra' } })],
      );
      const [conflict] = conflictsOf(await r.b.merge());
      await rebaseOk(r.p, r.b, { resolutions: [resolve(conflict, 'branch')] });
      await r.p.seed([addNode({ id: later, data: { name: 'later' } })]);
      const merged = await r.b.mergeOk();
      expect(merged.mode).to.equal('replay');
      const main = await r.p.main();
      expect(nodeOf(main, n).data.description).to.equal('branch');
      expect(nodeOf(main, later)).to.not.equal(undefined);
      expect(main.nodes.map((x: any) => x.data.name)).to.include('extra');
    });
  });
});
