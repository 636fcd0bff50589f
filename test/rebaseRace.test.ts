/**
 * rebaseBranch racing other writes, with real concurrent requests: a batch on the same
 * branch, another rebase, a merge of the same branch, a merge of another branch into
 * main. One of two writes of the branch wins and the other gets a clean 409; no change
 * is lost and no branch is left half rebased.
 */
import { expect } from 'chai';
import { addNode, uuid } from './support/graphBuilders';
import { behind, rebase } from './support/rebaseWorkspace';

const ROUNDS = 3;

describe('rebaseBranch under concurrency', function () {
  this.timeout(180_000);

  it('against a batch on the same branch: one wins, the other is 409 version_conflict', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const [fromMain, own, late] = [uuid(), uuid(), uuid()];
      const r = await behind(
        [],
        [addNode({ id: fromMain, data: { name: 'm' } })],
        [addNode({ id: own, data: { name: 'own' } })],
      );
      const [rebased, batch] = await Promise.all([
        rebase(r.p, r.b),
        r.p.user.api.post(`/v1/branches/${r.b.id}/deltas`, {
          deltas: [addNode({ id: late, data: { name: 'late' } })],
          expected_version: 1,
        }),
      ]);
      const statuses = [rebased.status, batch.status].sort();
      expect(statuses, JSON.stringify([rebased.body, batch.body])).to.deep.equal([200, 409]);
      const loser = rebased.status === 409 ? rebased : batch;
      expect(loser.body.detail.code).to.equal('version_conflict');
      const graph = await r.b.graph();
      expect(graph.branch.version).to.equal(2);
      const ids = graph.nodes.map((n: any) => n.id).sort();
      // the rebase won: main's node is on the branch, the batch's is not; or the reverse
      expect(ids).to.deep.equal((rebased.status === 200 ? [fromMain, own] : [own, late]).sort());
    }
  });

  it('against another rebase: one wins, the other is 409 version_conflict', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const r = await behind(
        [],
        [addNode({ data: { name: 'm' } })],
        [addNode({ data: { name: 'b' } })],
      );
      const both = await Promise.all([rebase(r.p, r.b), rebase(r.p, r.b)]);
      expect(both.map((x) => x.status).sort()).to.deep.equal([200, 409]);
      expect(both.find((x) => x.status === 409)?.body.detail.code).to.equal('version_conflict');
      const graph = await r.b.graph();
      expect(graph.branch.version).to.equal(2);
      expect(graph.nodes).to.have.length(2);
    }
  });

  it('against a merge of the same branch: one wins, the other is a clean 409', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const [fromMain, own] = [uuid(), uuid()];
      const r = await behind(
        [],
        [addNode({ id: fromMain, data: { name: 'm' } })],
        [addNode({ id: own, data: { name: 'own' } })],
      );
      const [rebased, merged] = await Promise.all([rebase(r.p, r.b), r.b.merge()]);
      expect(
        [rebased.status, merged.status].sort(),
        JSON.stringify([rebased.body, merged.body]),
      ).to.deep.equal([200, 409]);
      if (merged.status === 409) {
        expect(merged.body.detail.code).to.equal('version_conflict');
        r.b.version = rebased.body.branch.version;
        await r.b.mergeOk();
      } else {
        expect(rebased.body.detail.code).to.equal('branch_not_active');
      }
      const main = await r.p.main();
      expect(main.nodes.map((n: any) => n.id).sort()).to.deep.equal([fromMain, own].sort());
    }
  });

  it('against a merge of another branch into main: neither loses a change', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const [fromMain, own, other] = [uuid(), uuid(), uuid()];
      const r = await behind(
        [],
        [addNode({ id: fromMain, data: { name: 'm' } })],
        [addNode({ id: own, data: { name: 'own' } })],
      );
      const c = await r.p.fork();
      await c.apply([addNode({ id: other, data: { name: 'other' } })]);
      const [rebased, merged] = await Promise.all([rebase(r.p, r.b), c.merge()]);
      expect(rebased.status, JSON.stringify(rebased.body)).to.equal(200);
      expect(merged.status, JSON.stringify(merged.body)).to.equal(200);
      // the branch sits on one of main's two versions, whole
      expect([1, 2]).to.include(rebased.body.branch.base_main_version);
      r.b.version = rebased.body.branch.version;
      await r.b.mergeOk();
      const main = await r.p.main();
      expect(main.nodes.map((n: any) => n.id).sort()).to.deep.equal([fromMain, own, other].sort());
    }
  });
});
