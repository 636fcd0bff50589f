/**
 * Webhooks through HTTP and the worker (createWebhook, listWebhooks, deleteWebhook,
 * listWebhookDeliveries): deliveries signed with HMAC-SHA-256 over `timestamp.body`
 * (the receiver here verifies it), retried with backoff, and refused for a private
 * target unless the operator allows such targets.
 */
import { randomUUID } from 'node:crypto';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { RunningWorker, startWorker } from '../services/worker/startWorker';
import { isPrivateAddress, verifyDelivery } from '../services/webhooks';
import { createLogger } from '../shared/logging/logger';
import { eventually, workerConfig } from './support/decisionFixtures';
import { grant, newKeyFor, newUser, TestUser } from './support/harness';
import { mergeProject } from './support/mergeWorkspace';

const SECRET = 'a-long-random-secret-for-tests';
const logger = createLogger({ level: 'silent' });

interface Received {
  verified: boolean;
  seq: number;
  kind: string;
}

/** A receiver on loopback that fails the first `failures` requests, then answers 200. */
async function receiver(
  failures: number,
): Promise<{ url: string; got: Received[]; calls: () => number; close(): Promise<void> }> {
  const got: Received[] = [];
  let calls = 0;
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      calls += 1;
      if (calls <= failures) {
        res.statusCode = 500;
        res.end();
        return;
      }
      const verified = verifyDelivery(
        SECRET,
        String(req.headers['x-graph-timestamp']),
        body,
        String(req.headers['x-graph-signature']),
      );
      const event = JSON.parse(body);
      got.push({ verified, seq: event.seq, kind: event.kind });
      res.statusCode = 200;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    got,
    calls: () => calls,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function register(owner: TestUser, projectId: string, url: string) {
  const res = await owner.api.post(`/v1/projects/${projectId}/webhooks`, { url, secret: SECRET });
  expect(res.status, JSON.stringify(res.body)).to.equal(201);
  expect(JSON.stringify(res.body)).to.not.include(SECRET);
  return res.body.webhook;
}

describe('webhooks', function () {
  this.timeout(120_000);
  let worker: RunningWorker | undefined;
  afterEach(async () => {
    await worker?.close();
    worker = undefined;
  });

  it('the owner registers, lists (no secret) and deletes; other members and scopes are refused', async () => {
    const owner = await newUser();
    const editor = await newUser();
    const p = await mergeProject(owner);
    await grant(p.projectId, editor, 'editor');
    const hook = await register(owner, p.projectId, 'https://ci.example.com/hook');
    const list = await owner.api.get(`/v1/projects/${p.projectId}/webhooks`);
    expect(list.body.webhooks.map((w: any) => w.id)).to.deep.equal([hook.id]);
    expect(JSON.stringify(list.body)).to.not.include(SECRET);
    expect((await editor.api.get(`/v1/projects/${p.projectId}/webhooks`)).status).to.equal(404);
    const asEditor = await editor.api.post(`/v1/projects/${p.projectId}/webhooks`, {
      url: 'https://x.example.com',
      secret: SECRET,
    });
    expect(asEditor.status).to.equal(404);
    const noScope = await newKeyFor(owner, { scopes: [] });
    expect(
      (
        await noScope.api.post(`/v1/projects/${p.projectId}/webhooks`, {
          url: 'https://x.example.com',
          secret: SECRET,
        })
      ).status,
    ).to.equal(403);
    const bad = await owner.api.post(`/v1/projects/${p.projectId}/webhooks`, {
      url: 'ftp://x.example.com',
      secret: SECRET,
    });
    expect(bad.status).to.equal(422);
    expect(bad.body.detail.code).to.equal('invalid_webhook_url');
    const deleted = await owner.api.delete(`/v1/projects/${p.projectId}/webhooks/${hook.id}`);
    expect(deleted.status).to.equal(200);
    expect(
      (await owner.api.get(`/v1/projects/${p.projectId}/webhooks`)).body.webhooks,
    ).to.deep.equal([]);
  });

  it('delivers signed events the receiver verifies, retrying a failing receiver with backoff', async () => {
    const target = await receiver(2);
    try {
      worker = await startWorker(
        workerConfig({
          WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
          WEBHOOK_BACKOFF_MS: '100',
          WEBHOOK_DISPATCH_MS: '200',
        }),
        logger,
        { webhooks: `webhooks-test-${randomUUID().slice(0, 8)}` },
      );
      const owner = await newUser();
      const p = await mergeProject(owner);
      const hook = await register(owner, p.projectId, target.url);
      const b = await p.fork();
      const cr = await owner.api.post(`/v1/branches/${b.id}/change-request`, { title: 'ci' });
      expect(cr.status).to.equal(201);
      // the fork is the owner's own event; the change request is every member's: delivered
      await eventually('the delivery', async () => (target.got.length > 0 ? true : undefined));
      expect(target.got).to.deep.equal([{ verified: true, seq: 2, kind: 'change_request_opened' }]);
      expect(target.calls()).to.equal(3);
      const log = await eventually('the delivery log', async () => {
        const res = await owner.api.get(
          `/v1/projects/${p.projectId}/webhooks/${hook.id}/deliveries`,
        );
        return res.body.deliveries[0]?.status === 'delivered' ? res.body : undefined;
      });
      expect(log.deliveries[0]).to.include({ event_seq: 2, attempts: 3, last_status_code: 200 });
    } finally {
      await target.close();
    }
  });

  it('refuses a private target when the operator does not allow it, and logs it refused', async () => {
    expect(isPrivateAddress('127.0.0.1')).to.equal(true);
    expect(isPrivateAddress('10.1.2.3')).to.equal(true);
    expect(isPrivateAddress('fd00::1')).to.equal(true);
    expect(isPrivateAddress('fe80::1')).to.equal(true);
    expect(isPrivateAddress('::ffff:192.168.1.1')).to.equal(true);
    expect(isPrivateAddress('93.184.216.34')).to.equal(false);
    const target = await receiver(0);
    try {
      worker = await startWorker(workerConfig({ WEBHOOK_DISPATCH_MS: '200' }), logger, {
        webhooks: `webhooks-test-${randomUUID().slice(0, 8)}`,
      });
      const owner = await newUser();
      const p = await mergeProject(owner);
      const hook = await register(owner, p.projectId, target.url);
      const b = await p.fork();
      expect(
        (await owner.api.post(`/v1/branches/${b.id}/change-request`, { title: 'x' })).status,
      ).to.equal(201);
      const log = await eventually('the refusal', async () => {
        const res = await owner.api.get(
          `/v1/projects/${p.projectId}/webhooks/${hook.id}/deliveries`,
        );
        return res.body.deliveries[0]?.status === 'refused' ? res.body : undefined;
      });
      expect(log.deliveries[0].last_error).to.match(/non-public address/);
      expect(target.calls()).to.equal(0);
      // the log's offset is PageOffset: past 1,000,000 a 422, never a 500 from the store
      const deep = await owner.api.get(
        `/v1/projects/${p.projectId}/webhooks/${hook.id}/deliveries?offset=75446455138339949421527040`,
      );
      expect(deep.status).to.equal(422);
    } finally {
      await target.close();
    }
  });
});
