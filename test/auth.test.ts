/** Authentication, scopes, errors and limits at the gateway. */
import { expect } from 'chai';
import { loadConfigWith } from '../shared/config/config';
import { createLogger } from '../shared/logging/logger';
import { RunningService, startService } from '../services/gateway/server';
import { revokeApiKey } from '../services/identity/commands/revokeApiKey';
import { ApiClient } from './support/client';
import { currentHarness, newUser, TEST_ENV, uniqueName } from './support/harness';

describe('authentication and errors', () => {
  it('answers a missing Authorization header with the 401 body and WWW-Authenticate', async () => {
    const res = await currentHarness().anon.get('/v1/projects');
    expect(res.status).to.equal(401);
    expect(res.body).to.deep.equal({ detail: 'not_authenticated' });
    expect(res.headers.get('www-authenticate')).to.equal('Bearer');
  });

  it('gives malformed, unknown and revoked credentials the identical 401', async () => {
    const { anon, service } = currentHarness();
    const user = await newUser();
    await revokeApiKey(service, user.keyId);
    const bodies = [];
    for (const header of [
      'Basic abc',
      'Bearer',
      'Bearer gds_unknownunknownunknownunknown',
      'token',
      `Bearer ${user.token}`,
    ]) {
      const res = await anon.get('/v1/projects', { headers: { Authorization: header } });
      expect(res.status, header).to.equal(401);
      bodies.push(JSON.stringify(res.body));
    }
    expect(new Set(bodies).size).to.equal(1);
  });

  it('authenticates before reading the body: 401 for a bad credential whatever the body', async () => {
    const { anon } = currentHarness();
    const bad = { Authorization: 'Bearer gds_unknownunknownunknownunknown' };
    const badJson = await anon.post('/v1/projects', undefined, { headers: bad, raw: '{"name": ' });
    expect(badJson.status).to.equal(401);
    expect(badJson.body).to.deep.equal({ detail: 'not_authenticated' });
    const huge = await anon.post('/v1/projects', undefined, {
      headers: bad,
      raw: JSON.stringify({ name: 'x'.repeat(6 * 1024 * 1024) }),
    });
    expect(huge.status).to.equal(401);
    // a known key's bad body is counted and carries the rate-limit headers
    const user = await newUser();
    const known = await user.api.post('/v1/projects', undefined, { raw: '{"name": ' });
    expect(known.status).to.equal(422);
    expect(known.headers.get('x-ratelimit-limit')).to.be.a('string');
    expect(known.headers.get('x-ratelimit-remaining')).to.be.a('string');
    const tooLarge = await user.api.post('/v1/projects', undefined, {
      raw: JSON.stringify({ name: 'x'.repeat(6 * 1024 * 1024) }),
    });
    expect(tooLarge.status).to.equal(413);
    expect(tooLarge.body.detail.code).to.equal('payload_too_large');
    expect(tooLarge.headers.get('x-ratelimit-reset')).to.be.a('string');
    // an operation without a request body never reads one: no 413 or 422 for what it ignores
    const ignored = await user.api.request<any>(
      'DELETE',
      `/v1/projects/${uniqueName()}`,
      undefined,
      {
        raw: '{not json',
      },
    );
    expect(ignored.status).to.equal(422); // the path id, not the body
    expect(ignored.body.detail[0].loc).to.deep.equal(['path', 'project_id']);
  });

  it('refuses a key at once after revocation, even while processes have it cached', async () => {
    const { anon, service } = currentHarness();
    const user = await newUser();
    const api = anon.withToken(user.token);
    // The first call looks the key up in Neo4j; the second is answered from the cache.
    expect((await api.get('/v1/projects')).status).to.equal(200);
    expect((await api.get('/v1/projects')).status).to.equal(200);
    await revokeApiKey(service, user.keyId);
    expect((await api.get('/v1/projects')).status).to.equal(401);
  });

  it('serves /healthz without credentials once Neo4j and Redis answer', async () => {
    const res = await currentHarness().anon.get('/healthz');
    expect(res.status).to.equal(200);
    expect(res.body.status).to.equal('ok');
  });

  it('puts the rate-limit headers on every authenticated response, errors included', async () => {
    const alice = await newUser();
    for (const res of [
      await alice.api.get('/v1/projects'),
      await alice.api.post('/v1/projects', { name: '' }),
    ]) {
      for (const h of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) {
        expect(res.headers.get(h), h).to.match(/^\d+$/);
      }
    }
  });

  it('echoes a request id', async () => {
    const alice = await newUser();
    const res = await alice.api.get('/v1/projects', { headers: { 'X-Request-Id': 'trace-123' } });
    expect(res.headers.get('x-request-id')).to.equal('trace-123');
  });

  it('answers a path id that is not a uuid with the 422 array form', async () => {
    const alice = await newUser();
    const res = await alice.api.get('/v1/graph/not-a-uuid');
    expect(res.status).to.equal(422);
    expect(res.body.detail[0].loc).to.deep.equal(['path', 'project_id']);
  });

  it('answers a body over 5 MiB with 413 payload_too_large', async () => {
    const alice = await newUser();
    const res = await alice.api.post('/v1/projects', {
      name: 'x',
      pad: 'y'.repeat(5 * 1024 * 1024 + 10),
    });
    expect(res.status).to.equal(413);
    expect(res.body.detail.code).to.equal('payload_too_large');
  });

  it('gives a missing project and an invisible one the identical 404', async () => {
    const owner = await newUser();
    const stranger = await newUser();
    const p = (await owner.api.post('/v1/projects', { name: uniqueName() })).body.project;
    const invisible = await stranger.api.get(`/v1/graph/${p.id}`);
    const missing = await stranger.api.get('/v1/graph/00000000-0000-4000-8000-000000000000');
    expect(invisible.status).to.equal(404);
    expect(invisible.body).to.deep.equal(missing.body);
    expect(invisible.body.detail.code).to.equal('not_found');
  });

  describe('rate limiting', () => {
    let limited: RunningService;
    let client: ApiClient;

    before(async () => {
      const config = loadConfigWith({
        ...TEST_ENV,
        RATE_LIMIT_WRITE_PER_MIN: '3',
        RATE_LIMIT_READ_PER_MIN: '5',
        RATE_LIMIT_ANON_PER_MIN: '2',
      });
      limited = await startService(config, createLogger({ level: 'silent' }));
      client = new ApiClient(limited.url, currentHarness().contract);
    });
    after(async () => limited.close());

    it('answers 429 rate_limited with Retry-After and the X-RateLimit headers once the write bucket is spent', async () => {
      const alice = await newUser();
      const api = client.withToken(alice.token);
      const statuses = [];
      let last;
      for (let i = 0; i < 4; i++) {
        last = await api.post('/v1/projects', { name: uniqueName() });
        statuses.push(last.status);
      }
      expect(statuses).to.deep.equal([201, 201, 201, 429]);
      expect(last!.body).to.deep.equal({ detail: 'rate_limited' });
      expect(Number(last!.headers.get('retry-after'))).to.be.within(1, 60);
      expect(last!.headers.get('x-ratelimit-limit')).to.equal('3');
      expect(last!.headers.get('x-ratelimit-remaining')).to.equal('0');
      expect(Number(last!.headers.get('x-ratelimit-reset'))).to.be.greaterThan(Date.now() / 1000);
      // the read bucket is separate
      expect((await api.get('/v1/projects')).status).to.equal(200);
    });

    it('limits unauthenticated calls per client address', async () => {
      // the address bucket is shared with every other unauthenticated call of this run
      const answers = [];
      for (let i = 0; i < 4; i++) answers.push(await client.get('/v1/projects'));
      const limited = answers.filter((r) => r.status === 429);
      expect(limited.length).to.be.at.least(2);
      for (const r of limited) {
        expect(r.body).to.deep.equal({ detail: 'rate_limited' });
        expect(Number(r.headers.get('retry-after'))).to.be.within(1, 60);
        // every 429 carries all four headers, the address bucket's included
        expect(r.headers.get('x-ratelimit-limit')).to.equal('2');
        expect(r.headers.get('x-ratelimit-remaining')).to.equal('0');
        expect(Number(r.headers.get('x-ratelimit-reset'))).to.be.greaterThan(Date.now() / 1000 - 1);
      }
      for (const r of answers.filter((x) => x.status !== 429)) expect(r.status).to.equal(401);
    });
  });
});
