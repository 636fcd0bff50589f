/**
 * Background purges: the BullMQ queue
 * `purge`, processed by the worker started in-process with startWorker, against
 * the real Redis and Neo4j. Deletes answer at once; the content goes in batches
 * while the API keeps answering; jobs are idempotent, deduplicated, survive a
 * worker restart, and a delete made while Redis is unreachable is caught up by
 * the sweep.
 */
import { expect } from 'chai';
import { discardBranch } from '../services/branches/commands/discardBranch';
import { deleteProject } from '../services/projects/commands/deleteProject';
import { purgeBranch } from '../services/purge/commands/purgeBranch';
import { purgeProject } from '../services/purge/commands/purgeProject';
import { purgeJobId, PurgeQueue } from '../services/purge/purgeQueue';
import { RunningWorker, startWorker } from '../services/worker/startWorker';
import type { Principal } from '../shared/http/principal';
import type { ServiceContext } from '../shared/http/serviceContext';
import { createLogger } from '../shared/logging/logger';
import { decisionOut, eventually, seedDecisions, workerConfig } from './support/decisionFixtures';
import { addNode, workspace, Workspace } from './support/graphBuilders';
import { ALL_SCOPES, currentHarness, grant, newUser, TestUser } from './support/harness';
import {
  bulkContent,
  projectLeftovers,
  storedBranch,
  storedContent,
} from './support/purgeFixtures';

const config = workerConfig();
const logger = createLogger({ level: 'silent' });
const EMPTY = { nodes: 0, ports: 0, edges: 0 };

function principalOf(user: TestUser): Principal {
  return {
    userId: user.userId,
    keyId: user.keyId,
    scopes: new Set(ALL_SCOPES),
    projectAllowlist: null,
  };
}

/** A workspace whose branch has two applied batches (two Change records) and `bulk` more nodes. */
async function filledWorkspace(bulk: number): Promise<Workspace> {
  const ws = await workspace(await newUser());
  await ws.apply([addNode({ data: { name: 'a' } })]);
  await ws.apply([addNode({ data: { name: 'b' } })]);
  await bulkContent(ws.branchId, bulk);
  return ws;
}

const contentGone = (branchId: string) =>
  eventually(
    `content of ${branchId} purged`,
    async () => {
      const { nodes, ports, edges } = await storedContent(branchId);
      return nodes + ports + edges === 0 ? true : undefined;
    },
    60_000,
  );

const projectGone = (ws: Workspace) =>
  eventually(
    `project ${ws.projectId} purged`,
    async () => {
      const left = await projectLeftovers(ws.projectId, [ws.mainId, ws.branchId]);
      return Object.values(left).every((n) => n === 0) ? true : undefined;
    },
    60_000,
  );

/** Discards a branch and deletes a project through the commands, with Redis unreachable. */
async function deleteWithoutRedis(): Promise<{ ws: Workspace; doomed: Workspace }> {
  const ws = await filledWorkspace(300);
  const doomed = await filledWorkspace(300);
  const unreachable = new PurgeQueue({
    config,
    logger,
    redisUrl: 'redis://127.0.0.1:1',
    requestTimeoutMs: 500,
  });
  const ctx: ServiceContext = {
    executor: currentHarness().service.executor,
    config,
    logger,
    purges: unreachable,
  };
  try {
    const started = Date.now();
    const branch = await discardBranch(ctx, principalOf(ws.user), ws.branchId, ws.version);
    await deleteProject(ctx, principalOf(doomed.user), doomed.projectId);
    expect(Date.now() - started).to.be.below(5000);
    expect(branch.status).to.equal('discarded');
  } finally {
    await unreachable.close();
  }
  const branches = await ws.user.api.get(`/v1/projects/${ws.projectId}/branches`);
  expect(branches.body.branches).to.deep.equal([]);
  expect((await doomed.user.api.get(`/v1/graph/${doomed.projectId}`)).status).to.equal(404);
  return { ws, doomed };
}

describe('background purges (queue `purge`)', function () {
  this.timeout(120_000);
  let worker: RunningWorker;

  before(async () => {
    worker = await startWorker(config, logger);
  });
  after(async () => {
    await worker?.close();
  });

  it('discarding a branch answers at once; its content goes in batches while the API answers', async () => {
    const ws = await filledWorkspace(3000);
    expect(await storedContent(ws.branchId)).to.deep.equal({
      nodes: 3002,
      ports: 6000,
      edges: 3000,
      changes: 2,
    });
    const jobId = purgeJobId({ kind: 'branch', branchId: ws.branchId });
    const purging: { start?: number; end?: number } = {};
    const purgeWorker = worker.workers.find((w) => w.name === 'purge');
    purgeWorker?.on('active', (job) => {
      if (job.id === jobId) purging.start = Date.now();
    });
    purgeWorker?.on('completed', (job) => {
      if (job.id === jobId) purging.end = Date.now();
    });
    const api = ws.user.api;
    const res = await api.delete(`/v1/branches/${ws.branchId}?expected_version=${ws.version}`);
    expect(res.status).to.equal(200);
    expect(res.body.branch.status).to.equal('discarded');

    // Reads keep answering, back to back, until the purge job has finished.
    const reads: { at: number; ms: number; status: number }[] = [];
    const deadline = Date.now() + 90_000;
    while (purging.end === undefined && Date.now() < deadline) {
      const sent = Date.now();
      const answers = await Promise.all([
        api.get(`/v1/graph/${ws.projectId}`),
        api.get(`/v1/projects/${ws.projectId}/branches`),
        api.get('/v1/projects'),
        api.get(`/v1/decisions?project_id=${ws.projectId}`),
      ]);
      for (const answer of answers)
        reads.push({ at: Date.now(), ms: Date.now() - sent, status: answer.status });
    }
    expect(purging.end, 'the purge job finished').to.be.a('number');
    const during = reads.filter((r) => r.at > (purging.start ?? 0) && r.at < (purging.end ?? 0));
    expect(during.length, 'reads answered while the purge ran').to.be.at.least(1);
    expect(reads.every((r) => r.status === 200)).to.equal(true);
    expect(Math.max(...reads.map((r) => r.ms)), 'no read waited on the purge').to.be.below(10_000);
    // nodes, ports and wires are gone; the branch record and its structural_changes stay
    expect(await storedContent(ws.branchId)).to.deep.equal({ ...EMPTY, changes: 2 });
    const branch = await storedBranch(ws.branchId);
    expect(branch?.status).to.equal('discarded');
    expect(branch?.purgedAt).to.be.a('string');
  });

  it('deleting a project leaves every route at once, then branches, graph, changes, decisions and members go', async () => {
    const ws = await filledWorkspace(1500);
    await bulkContent(ws.mainId, 1500);
    const keep = await filledWorkspace(100);
    await seedDecisions([
      decisionOut(ws.projectId),
      decisionOut(ws.projectId, { state: 'captured' }),
    ]);
    await seedDecisions([decisionOut(keep.projectId)]);
    await grant(ws.projectId, await newUser(), 'viewer');
    const api = ws.user.api;
    expect((await api.delete(`/v1/projects/${ws.projectId}`)).status).to.equal(200);
    expect((await api.get(`/v1/graph/${ws.projectId}`)).status).to.equal(404);
    expect((await api.get(`/v1/branches/${ws.branchId}/graph`)).status).to.equal(404);
    expect((await api.get(`/v1/decisions?project_id=${ws.projectId}`)).status).to.equal(404);
    const branchIds = [ws.mainId, ws.branchId];
    const zero = { projects: 0, memberships: 0, branches: 0, decisions: 0, content: 0 };
    await eventually(
      'project purged',
      async () => {
        const left = await projectLeftovers(ws.projectId, branchIds);
        return Object.values(left).every((n) => n === 0) ? left : undefined;
      },
      60_000,
    );
    expect(await projectLeftovers(ws.projectId, branchIds)).to.deep.equal(zero);
    // another project is untouched, and a rerun of either purge finds nothing
    expect(await projectLeftovers(keep.projectId, [keep.mainId, keep.branchId])).to.deep.include({
      projects: 1,
      memberships: 1,
      branches: 2,
      decisions: 1,
    });
    const again = await purgeProject(worker.executor, ws.projectId);
    expect(Object.values(again).every((n) => n === 0)).to.equal(true);
    expect(await purgeBranch(worker.executor, ws.branchId)).to.deep.equal(EMPTY);
  });

  it('a purge job never touches live content; a refused job is retried once its branch is discarded', async () => {
    const ws = await filledWorkspace(50);
    await worker.purgeQueue.enqueue({ kind: 'branch', branchId: ws.branchId });
    await worker.purgeQueue.enqueue({ kind: 'project', projectId: ws.projectId });
    const queue = worker.purgeQueue.queue;
    for (const id of [
      purgeJobId({ kind: 'branch', branchId: ws.branchId }),
      `project-${ws.projectId}`,
    ]) {
      const job = await eventually(`job ${id} failed`, async () => {
        // getJob may catch the job still active (no failedReason yet) just before it fails
        const found = await queue.getJob(id);
        return found && (await found.isFailed()) && found.failedReason ? found : undefined;
      });
      expect(job.failedReason).to.match(/not discarded|not deleted/);
    }
    expect((await storedContent(ws.branchId)).nodes).to.equal(52);
    expect(
      (await ws.user.api.get(`/v1/projects/${ws.projectId}/branches`)).body.branches,
    ).to.have.length(1);
    const res = await ws.user.api.delete(
      `/v1/branches/${ws.branchId}?expected_version=${ws.version}`,
    );
    expect(res.status).to.equal(200);
    await contentGone(ws.branchId);
  });
});

describe('background purges: restarts and Redis outages', function () {
  this.timeout(120_000);

  it('jobs are deduplicated by jobId, wait in Redis while no worker runs, and run after a restart', async () => {
    const ws = await filledWorkspace(500);
    const queue = new PurgeQueue({ config, logger });
    try {
      const res = await ws.user.api.delete(
        `/v1/branches/${ws.branchId}?expected_version=${ws.version}`,
      );
      expect(res.status).to.equal(200);
      await queue.enqueue({ kind: 'branch', branchId: ws.branchId }); // a duplicate: no second job
      const jobId = purgeJobId({ kind: 'branch', branchId: ws.branchId });
      const waiting = (await queue.queue.getWaiting()).filter((job) => job.id === jobId);
      expect(waiting).to.have.length(1);
      expect((await storedContent(ws.branchId)).nodes).to.equal(502); // nobody purges yet
      const worker = await startWorker(config, logger);
      try {
        await contentGone(ws.branchId);
        // done and removed (removeOnComplete), so a later request could run it again
        await eventually('job removed', async () =>
          (await queue.queue.getJob(jobId)) ? undefined : true,
        );
      } finally {
        await worker.close();
      }
    } finally {
      await queue.close();
    }
  });

  it('a delete while Redis is unreachable still succeeds; the worker sweep purges it later', async () => {
    const worker = await startWorker(config, logger);
    try {
      await worker.sweep(); // the start-up sweep is done before the outage
      const { ws, doomed } = await deleteWithoutRedis();
      expect((await storedContent(ws.branchId)).nodes).to.equal(302); // no job was queued
      const swept = await worker.sweep();
      expect(swept.branches).to.be.at.least(1);
      expect(swept.projects).to.be.at.least(1);
      await contentGone(ws.branchId);
      await projectGone(doomed);
      expect((await storedContent(ws.branchId)).changes).to.equal(2);
      expect((await worker.sweep()).branches).to.equal(0);
    } finally {
      await worker.close();
    }
  });

  it('the sweep also runs on its own every PURGE_SWEEP_INTERVAL_S', async () => {
    const worker = await startWorker(workerConfig({ PURGE_SWEEP_INTERVAL_S: '1' }), logger);
    try {
      await worker.sweep();
      const { ws, doomed } = await deleteWithoutRedis();
      await contentGone(ws.branchId);
      await projectGone(doomed);
    } finally {
      await worker.close();
    }
  });
});
