/**
 * What one caller can hold at once: requests in flight per key (429 with Retry-After
 * past MAX_IN_FLIGHT_PER_KEY, here 2), and the time one Neo4j transaction may take
 * (NEO4J_TX_TIMEOUT_MS), after which the server stops it and the API answers 503.
 */
import { request as httpRequest, ClientRequest } from 'node:http';
import { expect } from 'chai';
import { loadConfigWith } from '../../shared/config/config';
import { ServiceUnavailableError } from '../../shared/errors/domainErrors';
import { createLogger } from '../../shared/logging/logger';
import { cypher } from '../../shared/neo4j/namedQuery';
import { Executor } from '../../shared/neo4j/executor';
import { RunningService, startService } from '../../services/gateway/server';
import { ApiClient } from '../support/client';
import { currentHarness, newUser, TEST_ENV, uniqueName } from '../support/harness';

/** A project create whose body never finishes arriving: it holds its slot until aborted. */
function trickle(
  url: string,
  token: string,
): { req: ClientRequest; done: Promise<number>; answered: boolean } {
  const req = httpRequest(`${url}/v1/projects`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      'content-length': '1000',
    },
  });
  const held = { req, done: Promise.resolve(0), answered: false };
  held.done = new Promise<number>((resolve) => {
    req.on('response', (res) => {
      held.answered = true;
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', () => resolve(0));
  });
  req.write('{"name": "');
  return held;
}

describe('abuse: what one caller can hold at once', function () {
  this.timeout(60_000);
  let service: RunningService;
  let client: ApiClient;

  before(async () => {
    const config = loadConfigWith({ ...TEST_ENV, MAX_IN_FLIGHT_PER_KEY: '2' });
    service = await startService(config, createLogger({ level: 'silent' }));
    client = new ApiClient(service.url, currentHarness().contract);
  });
  after(async () => service?.close());

  it('answers 429 with Retry-After to a key past its requests in flight, and frees the slots', async () => {
    const caller = await newUser();
    const other = await newUser();
    // the key is looked up once, so the slow requests are admitted without delay
    expect((await client.withToken(caller.token).get('/v1/projects')).status).to.equal(200);
    const held = [trickle(service.url, caller.token), trickle(service.url, caller.token)];
    // Wait until both slow requests are admitted (their headers are in). A probe can take
    // a slot before a slow request's admission has finished (a slow request opens a new
    // connection, and its rate-limit lease may need a Redis call), and that slow request
    // is then refused: send it again, and give it time to be admitted before the next
    // probe, which would otherwise win the same race every time.
    for (let i = 0; i < 100; i += 1) {
      let sent = i === 0;
      for (const [n, h] of held.entries()) {
        if (!h.answered) continue;
        h.req.destroy();
        held[n] = trickle(service.url, caller.token);
        sent = true;
      }
      if (sent) await new Promise((resolve) => setTimeout(resolve, 300));
      const probe = await client.withToken(caller.token).get('/v1/projects');
      if (probe.status === 429) {
        // a slow request's 429 may still be on its way: settle before trusting the probe
        await new Promise((resolve) => setTimeout(resolve, 200));
        if (!held.some((h) => h.answered)) break;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const refused = await client.withToken(caller.token).get('/v1/projects');
    expect(refused.status).to.equal(429);
    expect(refused.body).to.deep.equal({ detail: 'rate_limited' });
    expect(Number(refused.headers.get('retry-after'))).to.be.at.least(1);
    expect(refused.headers.get('x-ratelimit-limit')).to.not.equal(null);
    // another key is not held back by this one
    expect((await client.withToken(other.token).get('/v1/projects')).status).to.equal(200);
    for (const { req } of held) req.destroy();
    await Promise.all(held.map((h) => h.done));
    let after = 429;
    for (let i = 0; i < 50 && after === 429; i += 1) {
      after = (await client.withToken(caller.token).get('/v1/projects')).status;
      if (after === 429) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(after).to.equal(200);
    const created = await client
      .withToken(caller.token)
      .post('/v1/projects', { name: uniqueName() });
    expect(created.status).to.equal(201);
  });

  it('stops a Neo4j transaction past NEO4J_TX_TIMEOUT_MS and answers 503, not a 500', async () => {
    const { config } = currentHarness();
    const executor = new Executor({
      ...config.neo4j,
      transactionTimeoutMs: 300,
      logger: createLogger({ level: 'silent' }),
    });
    try {
      const endless = cypher(
        'endlessCount',
        'UNWIND range(1, 2000000000) AS x WITH x WHERE x < 0 RETURN count(*) AS n',
      );
      const started = Date.now();
      const error = await executor
        .readTx((tx) => tx.run(endless))
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(error).to.be.instanceOf(ServiceUnavailableError);
      expect((error as Error).message).to.match(/300 ms .* nothing was changed/);
      expect(Date.now() - started).to.be.below(20_000);
    } finally {
      await executor.close();
    }
  });
});
