/**
 * What an outsider can make the service do: scrape /metrics (only the scraper may,
 * and scrapes do not each cost Redis round trips), buy Neo4j lookups with unknown
 * keys (past its unauthenticated budget, an address's keys are looked up gathered in
 * few statements, not one each, and a valid key from it is still served),
 * and replay a signed split-mode identity with another body or at another path.
 */
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { Redis } from 'ioredis';
import { loadConfigWith } from '../../shared/config/config';
import { createLogger } from '../../shared/logging/logger';
import { RunningService, startService } from '../../services/gateway/server';
import {
  bodyDigest,
  IDENTITY_HEADER,
  internalPath,
  signIdentity,
} from '../../services/split/identityToken';
import { RunningOwnerService, startOwnerService } from '../../services/split/startOwnerService';
import { ApiClient } from '../support/client';
import { currentHarness, newUser, TEST_ENV, uniqueName } from '../support/harness';

function sample(text: string, name: string, labels: Record<string, string>): number {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  const line = text
    .split('\n')
    .find((l) => l.startsWith(`${name}{`) && wanted.every((w) => l.includes(w)));
  return line ? Number(line.split(' ').pop()) : 0;
}

const unknownKey = () => `gds_${randomBytes(32).toString('base64url')}`;

describe('abuse: what an outsider can make the service do', function () {
  this.timeout(90_000);
  const METRICS_TOKEN = 'metrics-token-for-the-abuse-suite';
  let service: RunningService;
  let client: ApiClient;

  before(async () => {
    const config = loadConfigWith({ ...TEST_ENV, METRICS_TOKEN, RATE_LIMIT_ANON_PER_MIN: '3' });
    service = await startService(config, createLogger({ level: 'silent' }));
    client = new ApiClient(service.url, currentHarness().contract);
  });
  after(async () => service?.close());

  it('serves /metrics only with the scraper token', async () => {
    const attempts: Record<string, string>[] = [
      {},
      { authorization: 'Bearer wrong-token-of-some-length' },
    ];
    for (const headers of attempts) {
      const refused = await client.get('/metrics', { headers });
      expect(refused.status).to.equal(404);
      expect(JSON.stringify(refused.body)).to.not.match(/gds_/);
    }
    const scraped = await client.get<string>('/metrics', {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(scraped.status).to.equal(200);
    expect(scraped.body).to.match(/^gds_queue_jobs\{/m);
  });

  it('reads queue depths from Redis at most once per interval however often it is scraped', async () => {
    const redis = new Redis(currentHarness().config.redisUrl);
    const commands = async () => {
      const info = await redis.info('stats');
      return Number(/^total_commands_processed:(\d+)/m.exec(info)?.[1]);
    };
    const auth = { authorization: `Bearer ${METRICS_TOKEN}` };
    await client.get('/metrics', { headers: auth });
    const before = await commands();
    await Promise.all(Array.from({ length: 20 }, () => client.get('/metrics', { headers: auth })));
    const spent = (await commands()) - before;
    redis.disconnect();
    // 20 scrapes that each read both queues would cost 20 x 2 x (one MULTI of 5 counts)
    expect(spent, `${spent} Redis commands for 20 scrapes`).to.be.below(40);
  });

  it('past its misses, an address buys no lookup of its own per unknown key, and its valid keys are served', async () => {
    const lookups = () =>
      service.metrics
        .render()
        .then((t) =>
          sample(t, 'gds_neo4j_query_duration_seconds_count', { query: 'findActiveKeyByHash' }),
        );
    const statuses = [];
    for (let i = 0; i < 3; i += 1)
      statuses.push(
        (await client.get('/v1/projects', { headers: { authorization: `Bearer ${unknownKey()}` } }))
          .status,
      );
    expect(statuses).to.deep.equal([401, 401, 401]);
    const before = await lookups();
    for (let i = 0; i < 10; i += 1) {
      const res = await client.get('/v1/projects', {
        headers: { authorization: `Bearer ${unknownKey()}` },
      });
      expect(res.status).to.equal(429);
      expect(res.headers.get('retry-after')).to.not.equal(null);
    }
    expect(await lookups()).to.equal(before);
    // a key this process has not seen yet is looked up and served from the same address
    const known = await newUser();
    const api = client.withToken(known.token);
    expect((await api.post('/v1/projects', { name: uniqueName() })).status).to.equal(201);
  });

  it('holds /mcp to the same budget of unknown-key lookups as the API routes', async () => {
    const lookups = () =>
      service.metrics
        .render()
        .then((t) =>
          sample(t, 'gds_neo4j_query_duration_seconds_count', { query: 'findActiveKeyByHash' }),
        );
    const postMcp = (token: string) =>
      fetch(`${service.url}/mcp`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${token}`,
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
    // spend the address's misses (already spent if an earlier test of this service did)
    for (let i = 0; i < 3; i += 1)
      expect((await postMcp(unknownKey())).status).to.be.oneOf([401, 429]);
    const before = await lookups();
    for (let i = 0; i < 5; i += 1) {
      const res = await postMcp(unknownKey());
      expect(res.status).to.equal(429);
      expect(res.headers.get('retry-after')).to.not.equal(null);
    }
    expect(await lookups()).to.equal(before);
  });

  describe('separate-process identities', () => {
    const secret = randomBytes(32).toString('base64url');
    let projects: RunningOwnerService;
    before(async () => {
      const config = loadConfigWith({ ...TEST_ENV, INTERNAL_SECRET: secret });
      projects = await startOwnerService(config, 'projects', createLogger({ level: 'silent' }));
    });
    after(async () => projects?.close());

    it('refuses a captured identity replayed with another body or at another path', async () => {
      const alice = await newUser();
      const principal = {
        userId: alice.userId,
        keyId: alice.keyId,
        scopes: new Set(['graph:write']),
        projectAllowlist: null,
      };
      const body = JSON.stringify({ body: { name: uniqueName() } });
      const token = signIdentity(
        secret,
        { principal, operationId: 'createProject', requestId: 'r' },
        { method: 'POST', path: internalPath('createProject'), digest: bodyDigest(body) },
      );
      const send = (path: string, payload: string) =>
        fetch(`${projects.url}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', [IDENTITY_HEADER]: token },
          body: payload,
        });
      expect((await send(internalPath('createProject'), body)).status).to.equal(200);
      const forged = JSON.stringify({ body: { name: uniqueName() } });
      expect((await send(internalPath('createProject'), forged)).status).to.equal(401);
      expect((await send(`${internalPath('createProject')}/`, body)).status).to.equal(401);
    });
  });
});
