/**
 * Dry runs, archiving and full reads against concurrent writes: validate and merge
 * preview run beside merges without a deadlock or a 500 (a writer's dry run takes the
 * locks its write would take; a viewer's validate on main writes only on a fork of its
 * own, see test/dryRunLocks.test.ts),
 * archiving waits for a write in flight (after its 200 nothing more lands), a full
 * read never returns a graph torn by a write that committed while it read, and one
 * decision id cannot move between projects through two concurrent ingestions.
 */
import { expect } from 'chai';
import { lockBranchWithAccess } from '../../services/branches/store/branchQueries';
import {
  DecisionProjectMismatchError,
  upsertDecisions,
} from '../../services/decisions/commands/upsertDecisions';
import { findDecision } from '../../services/decisions/store/decisionQueries';
import { addNode, uuid, workspace } from '../support/graphBuilders';
import { currentHarness, grant, newUser } from '../support/harness';
import { mergeProject } from '../support/mergeWorkspace';
import { parseDecision } from '../../services/decisions/parseDecision';
import type { DecisionRecord } from '../../services/decisions/decisionRecord';
import { decisionOut } from '../support/decisionFixtures';

function record(projectId: string, id: string): DecisionRecord {
  const parsed = parseDecision(decisionOut(projectId, { id }));
  if (!parsed.ok) throw new Error(parsed.problems.join('; '));
  return parsed.record;
}

describe('abuse: dry runs, archives and reads against concurrent writes', function () {
  this.timeout(120_000);

  it('runs validate and merge preview beside merges without a 500 or a deadlock', async () => {
    const owner = await newUser();
    const viewer = await newUser();
    const p = await mergeProject(owner);
    await grant(p.projectId, viewer, 'viewer');
    const seeded = Array.from({ length: 6 }, (_, i) => addNode({ data: { name: `n${i}` } }));
    await p.seed(seeded);
    const statuses: number[] = [];
    for (let round = 0; round < 2; round += 1) {
      const branch = await p.fork();
      await branch.apply([addNode({ data: { name: `r${round}` } })]);
      const removeOne = { deltas: [{ type: 'delete_node', node_id: seeded[round].node.id }] };
      const answers = await Promise.all([
        branch.merge(),
        ...Array.from({ length: 3 }, () =>
          viewer.api.post(`/v1/branches/${p.mainId}/validate`, removeOne),
        ),
        owner.api.get(`/v1/branches/${branch.id}/merge-preview`),
        owner.api.post(`/v1/branches/${branch.id}/validate`, removeOne),
        owner.api.get(`/v1/branches/${branch.id}/merge-preview`),
      ]);
      for (const a of answers) statuses.push(a.status);
      expect(answers[0].status, JSON.stringify(answers[0].body)).to.equal(200);
      for (const a of answers.slice(1, 4)) expect(a.status, JSON.stringify(a.body)).to.equal(200);
      // a preview or validate that ran after the merge finds the branch merged: 409
      for (const a of answers.slice(4)) expect(a.status).to.be.oneOf([200, 409]);
    }
    expect(statuses.filter((s) => s >= 500)).to.deep.equal([]);
    expect((await p.main()).nodes).to.have.length(8);
  });

  it('archiving waits for a write in flight, and no write lands after its 200', async () => {
    const w = await workspace(await newUser());
    await w.apply([addNode({})]);
    const { executor } = currentHarness().service;
    // an apply in flight: it holds the branch's lock and has read `archived` as false
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const lockTaken = new Promise<void>((resolve) => (locked = resolve));
    const writer = executor.writeTx(async (tx) => {
      await tx.run(lockBranchWithAccess, { id: w.branchId, userId: w.user.userId });
      locked();
      await held;
    });
    await lockTaken;
    let archivedAt = 0;
    const archive = w.user.api
      .patch(`/v1/projects/${w.projectId}`, { archived: true })
      .then((res) => {
        archivedAt = Date.now();
        return res;
      });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(archivedAt, 'the archive did not wait for the write in flight').to.equal(0);
    const releasedAt = Date.now();
    release();
    await writer;
    const res = await archive;
    expect(res.status).to.equal(200);
    expect(archivedAt).to.be.at.least(releasedAt);
    const late = await w.post([addNode({})]);
    expect(late.status).to.equal(409);
    expect(late.body.detail.code).to.equal('project_archived');
  });

  it('never answers a full read torn by applies that commit while it reads', async () => {
    const w = await workspace(await newUser());
    const reads: Promise<any>[] = [];
    for (let i = 0; i < 12; i += 1) {
      await w.apply([addNode({ data: { name: `v${i}` } })]);
      reads.push(w.user.api.get(`/v1/branches/${w.branchId}/graph`));
      reads.push(w.user.api.get(`/v1/branches/${w.branchId}/graph`));
    }
    for (const res of await Promise.all(reads)) {
      expect(res.status).to.be.oneOf([200, 503]);
      // every batch added exactly one node: a graph at version v has v nodes
      if (res.status === 200) expect(res.body.nodes).to.have.length(res.body.branch.version);
    }
  });

  it('keeps a decision id in one project when two ingestions race for it', async () => {
    const user = await newUser();
    const a = await workspace(user);
    const b = await workspace(user);
    const { executor } = currentHarness().service;
    for (let i = 0; i < 6; i += 1) {
      const id = uuid();
      const results = await Promise.allSettled([
        upsertDecisions(executor, a.projectId, [record(a.projectId, id)]),
        upsertDecisions(executor, b.projectId, [record(b.projectId, id)]),
      ]);
      const won = results.filter((r) => r.status === 'fulfilled');
      expect(won, `id ${id}: both ingestions succeeded`).to.have.length(1);
      const lost = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
      expect(lost.reason).to.be.instanceOf(DecisionProjectMismatchError);
      const winner = results[0].status === 'fulfilled' ? a.projectId : b.projectId;
      const [row] = await executor.read<{ decision: { project_id: string } }>(findDecision, { id });
      expect(row.decision.project_id).to.equal(winner);
    }
  });
});
