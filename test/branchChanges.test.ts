/** The structural_changes trail (listBranchChanges), paged like the decisions list. */
import { expect } from 'chai';
import { grant, newUser } from './support/harness';
import { addNode } from './support/graphBuilders';
import { mergeProject } from './support/mergeWorkspace';

describe('branch change trail', function () {
  this.timeout(60_000);

  it('pages newest first with limit, offset and has_more', async () => {
    const p = await mergeProject(await newUser());
    const b = await p.fork();
    for (let i = 0; i < 5; i += 1) await b.apply([addNode({ data: { name: `n${i}` } })]);
    const page = async (query: string) => {
      const res = await p.user.api.get(`/v1/branches/${b.id}/changes${query}`);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      return res.body;
    };
    const first = await page('?limit=2');
    expect(first.changes.map((c: any) => c.version)).to.deep.equal([5, 4]);
    expect(first).to.include({ has_more: true, limit: 2, offset: 0, project_id: p.projectId });
    expect(first.branch).to.deep.equal({ id: b.id, version: 5 });
    const second = await page('?limit=2&offset=2');
    expect(second.changes.map((c: any) => c.version)).to.deep.equal([3, 2]);
    expect(second.has_more).to.equal(true);
    const last = await page('?limit=2&offset=4');
    expect(last.changes.map((c: any) => c.version)).to.deep.equal([1]);
    expect(last.has_more).to.equal(false);
    const all = await page('');
    expect(all).to.include({ limit: 50, offset: 0, has_more: false });
    expect(all.changes).to.have.length(5);
    const [newest] = all.changes;
    expect(newest).to.include({
      kind: 'batch',
      actor: p.user.userId,
      merged_branch_id: null,
      mode: null,
      idempotency_key: null,
    });
    expect(newest.deltas).to.have.length(1);
    expect(newest.deltas[0].node.data.name).to.equal('n4');
    expect((await page('?offset=9')).changes).to.deep.equal([]);
  });

  it('records the Idempotency-Key of a batch; keeps the trail of a discarded branch', async () => {
    const p = await mergeProject(await newUser());
    const b = await p.fork();
    const res = await p.user.api.post(
      `/v1/branches/${b.id}/deltas`,
      { deltas: [addNode({})], expected_version: 0 },
      { headers: { 'Idempotency-Key': 'trail-key-1' } },
    );
    expect(res.status).to.equal(200);
    await p.user.api.delete(`/v1/branches/${b.id}?expected_version=1`);
    const trail = await p.user.api.get(`/v1/branches/${b.id}/changes`);
    expect(trail.status).to.equal(200);
    expect(trail.body.changes).to.have.length(1);
    expect(trail.body.changes[0].idempotency_key).to.equal('trail-key-1');
  });

  it('serves main’s trail to every member; 404 for others; 422 for limits out of range', async () => {
    const p = await mergeProject(await newUser());
    const [a, b] = [await p.fork(), await p.fork()];
    await a.apply([addNode({})]);
    await b.apply([addNode({})]);
    await a.mergeOk();
    await b.mergeOk();
    const main = await p.user.api.get(`/v1/branches/${p.mainId}/changes`);
    expect(main.body.changes.map((c: any) => [c.version, c.kind, c.mode])).to.deep.equal([
      [2, 'merge', 'replay'],
      [1, 'merge', 'fast_forward'],
    ]);
    // each merge entry names the merged branch and when it happened
    expect(main.body.changes.map((c: any) => c.merged_branch_id)).to.deep.equal([b.id, a.id]);
    for (const c of main.body.changes)
      expect(c.created_at).to.match(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    // every member reads main's trail, a viewer too; limits 1 and 200 are accepted
    const viewer = await newUser();
    await grant(p.projectId, viewer, 'viewer');
    const one = await viewer.api.get(`/v1/branches/${p.mainId}/changes?limit=1`);
    expect(one.status).to.equal(200);
    expect(one.body).to.include({ limit: 1, has_more: true });
    expect(one.body.changes.map((c: any) => c.version)).to.deep.equal([2]);
    const max = await viewer.api.get(`/v1/branches/${p.mainId}/changes?limit=200`);
    expect(max.body).to.include({ limit: 200, has_more: false });
    // a working branch's trail is its owner's alone
    expect((await viewer.api.get(`/v1/branches/${a.id}/changes`)).status).to.equal(404);
    const stranger = await newUser();
    expect((await stranger.api.get(`/v1/branches/${p.mainId}/changes`)).status).to.equal(404);
    // PageOffset stops at 1,000,000: past it (up to numbers no integer holds) is a 422, never a 500
    const offsets = ['offset=1000001', 'offset=75446455138339949421527040'];
    for (const query of ['limit=0', 'limit=201', 'offset=-1', 'limit=x', ...offsets]) {
      const res = await p.user.api.get(`/v1/branches/${p.mainId}/changes?${query}`);
      expect(res.status, query).to.equal(422);
      expect(res.body.detail).to.be.an('array');
    }
    const deepest = await p.user.api.get(`/v1/branches/${p.mainId}/changes?offset=1000000`);
    expect(deepest.status).to.equal(200);
    expect(deepest.body.changes).to.deep.equal([]);
  });
});
