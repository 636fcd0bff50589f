/**
 * A deleted project's records that the feed, reviews and webhooks services own go with
 * its purge: the feed (events and head), change requests with their reviews and anchored
 * comments, main's protection rules, webhooks with their delivery log. From deleteProject
 * on, before the purge has run, their routes answer 404 and no delivery of the project is
 * sent, whether the worker's dispatcher would create it or a queued job would send it.
 * Counts are read from Neo4j directly (purgeFixtures.ts), as the other purge tests do.
 */
import { randomUUID } from 'node:crypto';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import type { Job } from 'bullmq';
import { expect } from 'chai';
import { deleteProject } from '../services/projects/commands/deleteProject';
import { purgeProject } from '../services/purge/commands/purgeProject';
import { deliveryProcessor, DeliveryJob, dispatchDeliveries } from '../services/webhooks';
import { RunningWorker, startWorker } from '../services/worker/startWorker';
import type { ServiceContext } from '../shared/http/serviceContext';
import { createLogger } from '../shared/logging/logger';
import { cypher } from '../shared/neo4j/namedQuery';
import { eventually, workerConfig } from './support/decisionFixtures';
import { addNode, uuid } from './support/graphBuilders';
import { currentHarness, grant, newUser, principalOf, TestUser } from './support/harness';
import { mergeProject, MergeProject } from './support/mergeWorkspace';
import { ownedLeftovers, projectLeftovers } from './support/purgeFixtures';

const logger = createLogger({ level: 'silent' });
const config = workerConfig({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', FEED_POLL_MS: '200' });
const RULES = { required_approvals: 1, no_error_findings: true, require_up_to_date: true };

/** A receiver on loopback that answers 200 and counts what it was sent. */
async function receiver(): Promise<{ url: string; calls: () => number; close(): Promise<void> }> {
  let calls = 0;
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      calls += 1;
      res.statusCode = 200;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    calls: () => calls,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function created(res: { status: number; body: any }, status = 201): Promise<any> {
  expect(res.status, JSON.stringify(res.body)).to.equal(status);
  return res.body;
}

interface ReviewedProject {
  p: MergeProject;
  owner: TestUser;
  viewer: TestUser;
  hookId: string;
  changeRequestIds: string[];
}

/** Opens a change request on a new branch of `p` (one node); a viewer comments on the node. */
async function reviewedRequest(p: MergeProject, viewer: TestUser): Promise<string> {
  const branch = await p.fork();
  const nodeId = uuid();
  await branch.apply([addNode({ id: nodeId, data: { name: 'orderStore' } })]);
  const open = await created(
    await p.user.api.post(`/v1/branches/${branch.id}/change-request`, { title: 'Store orders' }),
  );
  const crId: string = open.change_request.id;
  await created(
    await viewer.api.post(`/v1/change-requests/${crId}/reviews`, {
      verdict: 'comment',
      comments: [{ body: 'A state node?', anchor: { kind: 'node', id: nodeId } }],
    }),
  );
  return crId;
}

/**
 * A project with a webhook to `url`, main's protection rules, and a change request with
 * a viewer's anchored comment and an editor's approval with a comment of its own.
 */
async function reviewedProject(url: string): Promise<ReviewedProject> {
  const [owner, editor, viewer] = [await newUser(), await newUser(), await newUser()];
  const p = await mergeProject(owner);
  await grant(p.projectId, editor, 'editor');
  await grant(p.projectId, viewer, 'viewer');
  const hook = await created(
    await owner.api.post(`/v1/projects/${p.projectId}/webhooks`, { url, secret: 'x'.repeat(32) }),
  );
  await created(await owner.api.put(`/v1/projects/${p.projectId}/protection-rules`, RULES), 200);
  const crId = await reviewedRequest(p, viewer);
  await created(
    await editor.api.post(`/v1/change-requests/${crId}/reviews`, {
      verdict: 'approve',
      comments: [{ body: 'Fine by me.' }],
    }),
  );
  return { p, owner, viewer, hookId: hook.webhook.id, changeRequestIds: [crId] };
}

const zeroes = (counts: Record<string, number>) =>
  Object.fromEntries(Object.keys(counts).map((key) => [key, 0]));

const leftovers = (r: ReviewedProject) =>
  ownedLeftovers(r.p.projectId, { changeRequestIds: r.changeRequestIds, webhookIds: [r.hookId] });

const testMemberEvents = cypher(
  'testMemberEvents',
  `MATCH (e:FeedEvent {project_id: $projectId}) WHERE e.audience IS NULL
   RETURN count(e) AS events`,
);

/** The events of the project every member sees: those its webhooks are handed. */
async function memberEvents(projectId: string): Promise<number> {
  const rows = await currentHarness().service.executor.read<{ events: number }>(testMemberEvents, {
    projectId,
  });
  return rows[0].events;
}

const testDelivery = cypher(
  'testDelivery',
  'MATCH (d:WebhookDelivery {id: $id}) RETURN d.status AS status, d.attempts AS attempts',
);

async function storedDelivery(id: string): Promise<{ status: string; attempts: number }> {
  const rows = await currentHarness().service.executor.read<{ status: string; attempts: number }>(
    testDelivery,
    { id },
  );
  return rows[0];
}

/** Every route of the project's feed, reviews and webhooks answers 404. */
async function expectGone(r: ReviewedProject): Promise<void> {
  const project = `/v1/projects/${r.p.projectId}`;
  const reads: [TestUser, string][] = [
    [r.owner, `${project}/events`],
    [r.viewer, `${project}/events`],
    [r.owner, `${project}/events/stream?after=0`],
    [r.owner, `${project}/change-requests`],
    [r.viewer, `/v1/change-requests/${r.changeRequestIds[0]}`],
    [r.owner, `${project}/protection-rules`],
    [r.owner, `${project}/webhooks`],
    [r.owner, `${project}/webhooks/${r.hookId}/deliveries`],
  ];
  for (const [user, path] of reads)
    expect((await user.api.get(path)).status, `GET ${path}`).to.equal(404);
  const review = await r.viewer.api.post(`/v1/change-requests/${r.changeRequestIds[0]}/reviews`, {
    verdict: 'comment',
    body: 'still there?',
  });
  expect(review.status).to.equal(404);
  expect((await r.owner.api.delete(`${project}/webhooks/${r.hookId}`)).status).to.equal(404);
}

describe("purging a deleted project's feed, reviews and webhooks", function () {
  this.timeout(120_000);

  it('the worker purges the feed, change requests with reviews and comments, protection rules, webhooks and deliveries; another project keeps its own', async () => {
    const target = await receiver();
    let worker: RunningWorker | undefined;
    try {
      worker = await startWorker(config, logger, {
        webhooks: `webhooks-test-${randomUUID().slice(0, 8)}`,
      });
      const doomed = await reviewedProject(target.url);
      const keep = await reviewedProject(target.url);
      // every event every member sees has become a delivery, in both projects
      for (const r of [doomed, keep])
        await eventually('the deliveries', async () => {
          const expected = await memberEvents(r.p.projectId);
          return (await leftovers(r)).webhookDeliveries === expected ? true : undefined;
        });
      const before = await leftovers(doomed);
      expect(before).to.deep.include({
        feedHeads: 1,
        changeRequests: 1,
        reviews: 2,
        reviewComments: 2,
        protectionRules: 1,
        webhooks: 1,
      });
      expect(before.feedEvents).to.be.at.least(4); // fork, batch, opened, reviewed twice
      expect(before.webhookDeliveries).to.be.at.least(3); // opened, reviewed twice
      const kept = await leftovers(keep);
      expect(kept).to.deep.equal(before);

      expect((await doomed.owner.api.delete(`/v1/projects/${doomed.p.projectId}`)).status).to.equal(
        200,
      );
      await expectGone(doomed);
      const branchIds = [doomed.p.mainId];
      await eventually(
        'the project purged',
        async () => {
          const left = {
            ...(await leftovers(doomed)),
            ...(await projectLeftovers(doomed.p.projectId, branchIds)),
          };
          return Object.values(left).every((n) => n === 0) ? true : undefined;
        },
        60_000,
      );
      expect(await leftovers(doomed)).to.deep.equal(zeroes(before));

      // the other project is untouched and still answers
      expect(await leftovers(keep)).to.deep.equal(kept);
      const events = await keep.owner.api.get(`/v1/projects/${keep.p.projectId}/events`);
      expect(events.status).to.equal(200);
      expect(events.body.events).to.have.length(kept.feedEvents);
      const cr = await keep.viewer.api.get(`/v1/change-requests/${keep.changeRequestIds[0]}`);
      expect(cr.status).to.equal(200);
      expect(cr.body.reviews).to.have.length(2);
      const log = await keep.owner.api.get(
        `/v1/projects/${keep.p.projectId}/webhooks/${keep.hookId}/deliveries`,
      );
      expect(log.body.deliveries).to.have.length(kept.webhookDeliveries);

      // a rerun finds nothing
      const again = await purgeProject(worker.executor, doomed.p.projectId);
      expect(Object.values(again).every((n) => n === 0)).to.equal(true);
    } finally {
      await worker?.close();
      await target.close();
    }
  });

  it('from deleteProject on, before the purge, the routes answer 404 and no delivery of the project is created or sent', async () => {
    const target = await receiver();
    const { executor } = currentHarness().service;
    const deliver = deliveryProcessor(executor, config);
    const job = (id: string) =>
      ({
        data: { delivery_id: id },
        attemptsMade: 0,
        opts: { attempts: 1 },
      }) as unknown as Job<DeliveryJob>;
    try {
      const r = await reviewedProject(target.url);
      const deliveries = async () => {
        const res = await r.owner.api.get(
          `/v1/projects/${r.p.projectId}/webhooks/${r.hookId}/deliveries`,
        );
        expect(res.status).to.equal(200);
        return res.body.deliveries.map((d: any) => d.id) as string[];
      };
      // the dispatcher hands the events so far to the webhook; one delivery is sent
      await dispatchDeliveries(executor);
      const [sent, ...queued] = await deliveries();
      expect(queued).to.have.length.at.least(2);
      await deliver(job(sent));
      expect(target.calls()).to.equal(1);
      // an event the dispatcher has not seen yet: a second change request, reviewed
      r.changeRequestIds.push(await reviewedRequest(r.p, r.viewer));

      // deleted, with no purge requested (it runs below)
      const ctx: ServiceContext = { executor, config, logger };
      await deleteProject(ctx, principalOf(r.owner), r.p.projectId);
      await expectGone(r);
      const before = await leftovers(r);
      expect(before.changeRequests).to.equal(2);
      expect(before.webhookDeliveries).to.equal(queued.length + 1);

      // queued jobs end without sending; the dispatcher creates no delivery of the new events
      for (const id of queued) await deliver(job(id));
      expect(target.calls()).to.equal(1);
      for (const id of queued)
        expect(await storedDelivery(id)).to.deep.equal({ status: 'pending', attempts: 0 });
      await dispatchDeliveries(executor);
      expect(await leftovers(r)).to.deep.equal(before);

      // the purge removes what was there, each count as found; a rerun finds nothing
      const counts = await purgeProject(executor, r.p.projectId);
      for (const [key, n] of Object.entries(before)) expect(counts, key).to.have.property(key, n);
      expect(await leftovers(r)).to.deep.equal(zeroes(before));
      expect(await projectLeftovers(r.p.projectId, [r.p.mainId])).to.deep.include({ projects: 0 });
      for (const id of queued) await deliver(job(id));
      expect(target.calls()).to.equal(1);
      const again = await purgeProject(executor, r.p.projectId);
      expect(Object.values(again).every((n) => n === 0)).to.equal(true);
    } finally {
      await target.close();
    }
  });
});
