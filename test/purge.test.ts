/**
 * Background purges: the BullMQ queue
 * `purge`, processed by the worker started in-process with startWorker, against
 * the real Redis and Neo4j. Deletes answer at once; the content goes in batches
 * while the API keeps answering; jobs are idempotent, deduplicated, survive a
 * worker restart, and a delete made while Redis is unreachable is caught up by
 * the sweep. History retention moves the readable floors and removes the records no
 * readable version sees.
 */
import { expect } from 'chai';
import { discardBranch } from '../services/branches/commands/discardBranch';
import { deleteProject } from '../services/projects/commands/deleteProject';
import { purgeBranch } from '../services/purge/commands/purgeBranch';
import { purgeProject } from '../services/purge/commands/purgeProject';
import { sweepHistory, sweepStages } from '../services/purge';
import { cypher } from '../shared/neo4j/namedQuery';
import { purgeJobId, PurgeQueue } from '../services/purge/purgeQueue';
import { RunningWorker, startWorker } from '../services/worker/startWorker';
import type { ServiceContext } from '../shared/http/serviceContext';
import { createLogger } from '../shared/logging/logger';
import { decisionOut, eventually, seedDecisions, workerConfig } from './support/decisionFixtures';
import { addNode, uuid, workspace, Workspace } from './support/graphBuilders';
import { currentHarness, grant, newUser, principalOf } from './support/harness';
import { mergeProject } from './support/mergeWorkspace';
import {
  bulkContent,
  projectLeftovers,
  storedBranch,
  storedContent,
} from './support/purgeFixtures';

const config = workerConfig();
const logger = createLogger({ level: 'silent' });
const EMPTY = { nodes: 0, ports: 0, edges: 0 };

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
    const readAll = () =>
      Promise.all([
        api.get(`/v1/graph/${ws.projectId}`),
        api.get(`/v1/projects/${ws.projectId}/branches`),
        api.get('/v1/projects'),
        api.get(`/v1/decisions?project_id=${ws.projectId}`),
      ]);
    // the statements are planned before the purge starts: what is measured below is
    // how reads fare beside the purge, not a cold planner on a loaded machine
    await readAll();
    const res = await api.delete(`/v1/branches/${ws.branchId}?expected_version=${ws.version}`);
    expect(res.status).to.equal(200);
    expect(res.body.branch.status).to.equal('discarded');

    // Reads keep answering, back to back, until the purge job has finished.
    const reads: { at: number; ms: number; status: number }[] = [];
    const deadline = Date.now() + 90_000;
    while (purging.end === undefined && Date.now() < deadline) {
      const sent = Date.now();
      const answers = await readAll();
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

describe('history retention (sweepHistory)', function () {
  this.timeout(120_000);

  it('moves the floors of main and of a branch and removes the records no readable version sees', async () => {
    const user = await newUser();
    const p = await mergeProject(user);
    const n = uuid();
    await p.seed([addNode({ id: n, data: { name: 'n1' } })]); // main v1
    await p.seed([{ type: 'update_node_data', node_id: n, after: { name: 'n2' } }]); // v2
    await p.seed([{ type: 'update_node_data', node_id: n, after: { name: 'n3' } }]); // v3
    const b = await p.fork(); // reads main at 3
    for (const name of ['b1', 'b2', 'b3'])
      await b.apply([{ type: 'update_node_data', node_id: n, after: { name } }]);
    await p.seed([addNode({ data: { name: 'x4' } })]); // main v4
    await p.seed([addNode({ data: { name: 'x5' } })]); // main v5
    const mainAt3 = await user.api.get(`/v1/graph/${p.projectId}?version=3`);
    expect(mainAt3.status).to.equal(200);
    const branchHead = await b.graph();
    expect((await storedContent(p.mainId)).nodes).to.equal(5); // n at 1, 2, 3; x4; x5
    expect((await storedContent(b.id)).nodes).to.equal(3); // n at 1, 2, 3

    // Every version is older than the window; main keeps its 2 newest versions and
    // the base of the active branch (3), the branch its head.
    const history = workerConfig({
      HISTORY_RETENTION_DAYS: '0',
      HISTORY_MIN_MAIN_VERSIONS: '2',
    }).history;
    const executor = currentHarness().service.executor;
    const swept = await sweepHistory(executor, history, {
      now: Date.now() + 1000,
      projectId: p.projectId,
    });
    // main, the branch, and the five merged branches seed() used (each to its head, 1)
    expect(swept.lines).to.equal(7);
    // with one version of slack below each floor: main keeps n's record of v2 (valid
    // to 3), and its record of v1 too, because the branch that seeded v2 forked at v1
    // and, merged, reads main there for good; the branch keeps its record of v2 (valid
    // to 3) and removes one record of n and one of its kept orphan_node finding (whose
    // message names n, so it changed with it)
    expect(swept.records).to.equal(2);
    expect((await storedContent(p.mainId)).nodes).to.equal(5);
    expect((await storedContent(b.id)).nodes).to.equal(2);

    const gone = await user.api.get(`/v1/graph/${p.projectId}?version=2`);
    expect(gone.status).to.equal(404);
    expect(gone.body.detail).to.deep.include({ code: 'version_not_found', oldest: 3, newest: 5 });
    const kept = await user.api.get(`/v1/graph/${p.projectId}?version=3`);
    expect(kept.body.nodes).to.deep.equal(mainAt3.body.nodes);
    expect((await b.graph()).nodes).to.deep.equal(branchHead.nodes);
    const old = await user.api.get(`/v1/branches/${b.id}/graph?version=2`);
    expect(old.status).to.equal(404);
    expect(old.body.detail).to.deep.include({ oldest: 3, newest: 3 });

    // nothing moves again until new versions age
    expect(
      await sweepHistory(executor, history, { now: Date.now() + 1000, projectId: p.projectId }),
    ).to.deep.equal({ lines: 0, records: 0 });
  });

  it("a merged branch stays readable once main's floor passes its base; main drops what no such base sees", async () => {
    const user = await newUser();
    const p = await mergeProject(user);
    const [n, m, own] = [uuid(), uuid(), uuid()];
    await p.seed([
      addNode({ id: n, data: { name: 'n1' } }),
      addNode({ id: m, data: { name: 'm1' } }),
    ]); // main v1
    const a = await p.fork(); // reads main at 1 beneath one node of its own
    await a.apply([addNode({ id: own, data: { name: 'a-only' } })]);
    const others = [await p.fork(), await p.fork()]; // a user holds 3 active branches at most
    const changes = [
      { type: 'update_node_data', node_id: m, after: { name: 'm2' } },
      { type: 'update_node_data', node_id: m, after: { description: 'd3' } },
    ];
    for (const [i, branch] of others.entries()) {
      await branch.apply([changes[i]]);
      await branch.mergeOk(); // main v2 (fast-forward), then v3 (replay)
    }
    await a.mergeOk(); // main v4: every branch is merged, each forked at main v1
    const names = (graph: any) => graph.nodes.map((x: any) => x.data.name).sort();
    const aHead = await a.graph();
    expect(names(aHead)).to.deep.equal(['a-only', 'm1', 'n1']);
    expect((await storedContent(p.mainId)).nodes).to.equal(5); // n; m at 1, 2, 3; a-only

    const executor = currentHarness().service.executor;
    const history = workerConfig({
      HISTORY_RETENTION_DAYS: '0',
      HISTORY_MIN_MAIN_VERSIONS: '1',
    }).history;
    await sweepHistory(executor, history, { now: Date.now() + 1000, projectId: p.projectId });
    // main's floor is its head: v1 to v3 are gone from main's history ...
    const gone = await user.api.get(`/v1/graph/${p.projectId}?version=3`);
    expect(gone.status).to.equal(404);
    expect(gone.body.detail).to.deep.include({ code: 'version_not_found', oldest: 4, newest: 4 });
    // ... but main at v1, where the merged branches read it, is kept: only m's record of
    // v2 (valid to 3), seen by no readable version, is removed
    expect((await storedContent(p.mainId)).nodes).to.equal(4);
    expect(await a.graph()).to.deep.equal(aHead);
    expect(aHead.nodes.map((x: any) => x.id)).to.include(own);
    for (const [i, branch] of others.entries()) {
      const graph = await branch.graph();
      expect(names(graph)).to.deep.equal(
        [
          ['m2', 'n1'],
          ['m1', 'n1'],
        ][i],
      );
    }
  });

  it("a working branch's cleared finding stays cleared once its records age, though main still has it", async () => {
    const user = await newUser();
    const p = await mergeProject(user);
    const [n, feeder] = [uuid(), uuid()];
    const input = { id: uuid(), name: 'in', type: 'int' };
    await p.seed([addNode({ id: n, data: { name: 'n', inputs: [input] } })]); // main: in is unfed
    const b = await p.fork();
    const findingCodes = async () => {
      const res = await user.api.post(`/v1/branches/${b.id}/validate`, { deltas: [] });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      return res.body.findings.map((f: { code: string; locator: string }) => [f.code, f.locator]);
    };
    // the port's new name changes the finding's message: the branch records it itself ...
    await b.apply([
      { type: 'update_node_data', node_id: n, after: { inputs: [{ ...input, name: 'renamed' }] } },
    ]);
    expect(await findingCodes()).to.deep.equal([['unsatisfied_input', input.id]]);
    // ... then a wire feeds the port: the branch's record closes, and nothing after it
    const out = { id: uuid(), name: 'out', type: 'int' };
    await b.apply([
      addNode({ id: feeder, data: { name: 'feeder', outputs: [out] } }),
      { type: 'add_edge', edge: { id: uuid(), source_handle: out.id, target_handle: input.id } },
    ]);
    await b.apply([{ type: 'update_node_data', node_id: feeder, after: { description: 'x' } }]);
    await b.apply([{ type: 'update_node_data', node_id: feeder, after: { description: 'y' } }]);
    expect(await findingCodes()).to.deep.equal([]);

    // the branch's floor moves to its head: the closed record is seen by no readable
    // version, but it is what hides main's record of the same finding, so it stays
    const history = workerConfig({ HISTORY_RETENTION_DAYS: '0' }).history;
    const executor = currentHarness().service.executor;
    await sweepHistory(executor, history, { now: Date.now() + 1000, projectId: p.projectId });
    const old = await user.api.get(`/v1/branches/${b.id}/graph?version=1`);
    expect(old.status, 'the floor moved').to.equal(404);
    expect(await findingCodes()).to.deep.equal([]);
  });

  it('keeps everything within the retention window', async () => {
    const user = await newUser();
    const p = await mergeProject(user);
    const n = uuid();
    await p.seed([addNode({ id: n, data: { name: 'n1' } })]);
    await p.seed([{ type: 'update_node_data', node_id: n, after: { name: 'n2' } }]);
    const executor = currentHarness().service.executor;
    const swept = await sweepHistory(executor, workerConfig().history, { projectId: p.projectId });
    expect(swept).to.deep.equal({ lines: 0, records: 0 });
    expect((await user.api.get(`/v1/graph/${p.projectId}?version=0`)).status).to.equal(200);
  });

  it('removes the records of a staged import abandoned long enough, and only those', async () => {
    const executor = currentHarness().service.executor;
    const [abandoned, fresh] = [uuid(), uuid()];
    const open = cypher(
      'testOpenStage',
      `CREATE (:VStage {line: $line, kind: 'import', started_at: $at}) RETURN $line AS line`,
    );
    await executor.write(open, {
      line: abandoned,
      at: new Date(Date.now() - 7_200_000).toISOString(),
    });
    await executor.write(open, { line: fresh, at: new Date().toISOString() });
    await bulkContent(abandoned, 10);
    await bulkContent(fresh, 10);
    const swept = await sweepStages(executor);
    expect(swept.records).to.equal(40); // 10 nodes, 20 ports, 10 wires
    expect(await storedContent(abandoned)).to.deep.include({ nodes: 0, ports: 0, edges: 0 });
    expect((await storedContent(fresh)).nodes).to.equal(10);
    const stages = await executor.read<{ line: string }>(
      cypher('testStages', 'MATCH (s:VStage) WHERE s.line IN $lines RETURN s.line AS line'),
      { lines: [abandoned, fresh] },
    );
    expect(stages.map((r) => r.line)).to.deep.equal([fresh]);
  });
});
