/**
 * Rate limits spent from leases (RateLimits, WindowLeases) against the real Redis: the
 * processes sharing a window never admit more than its limit together, one process's
 * X-RateLimit-Remaining stays exact, a spent window is refused until it ends, and a
 * Redis that does not answer still leaves every request limited.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { RateLimitedError } from '../shared/errors/domainErrors';
import { createLogger } from '../shared/logging/logger';
import { createRedis } from '../shared/redis/redisClient';
import { RateLimits } from '../services/gateway/rateLimits';
import { WindowLeases } from '../services/gateway/windowLeases';
import { currentHarness } from './support/harness';

const perMinute = (n: number) => ({ read: n, write: n, anon: n });

async function outcome(limits: RateLimits, key: string): Promise<'admitted' | 'refused'> {
  try {
    await limits.consume('read', key);
    return 'admitted';
  } catch (error) {
    if (error instanceof RateLimitedError) return 'refused';
    throw error;
  }
}

describe('rate limits spent from leases (RateLimits)', function () {
  this.timeout(30_000);
  const redis = () => currentHarness().service.redis;

  it('admits exactly the limit in a window across processes sharing it, however the requests interleave', async () => {
    const prefix = `rl-test-${randomUUID()}`;
    // two gateway processes: two RateLimits on the same counters
    const processes = [1, 2].map(
      () => new RateLimits({ redis: redis(), prefix, perMinute: perMinute(200) }),
    );
    const key = randomUUID();
    const answers = await Promise.all(
      Array.from({ length: 600 }, (_, i) => outcome(processes[i % 2], key)),
    );
    expect(answers.filter((a) => a === 'admitted')).to.have.length(200);
    // spent: both refuse without a new window
    expect(await outcome(processes[0], key)).to.equal('refused');
    expect(await outcome(processes[1], key)).to.equal('refused');
  });

  it('keeps X-RateLimit-Remaining within two leases per other process of the true remainder when processes take turns', async () => {
    const prefix = `rl-test-${randomUUID()}`;
    // limit 400: leases grow to 20 points
    const processes = [1, 2].map(
      () => new RateLimits({ redis: redis(), prefix, perMinute: perMinute(400) }),
    );
    const key = randomUUID();
    const errors: number[] = [];
    for (let i = 0; i < 300; i++) {
      // uneven turns, so that each process's lease grows at its own pace
      const state = await processes[i % 3 === 0 ? 1 : 0].consume('read', key);
      errors.push(state.remaining - (400 - (i + 1)));
    }
    // low by what the other process holds unspent (at most a lease, and the quarter of the
    // last one left when it claimed it ahead), high by what it claimed since this
    // process's last claim (a lease, and what it spent meanwhile)
    expect(Math.min(...errors)).to.be.at.least(-(20 + 20 / 4));
    expect(Math.max(...errors)).to.be.at.most(2 * 20);
    // both happen: the figure is each process's view as of its last claim
    expect(errors.some((e) => e < 0)).to.equal(true);
    expect(errors.some((e) => e > 0)).to.equal(true);
  });

  it('counts a single process exactly: Remaining falls by one per request while Redis sees a call per lease', async () => {
    const prefix = `rl-test-${randomUUID()}`;
    const limits = new RateLimits({ redis: redis(), prefix, perMinute: perMinute(1000) });
    const key = randomUUID();
    const remaining: number[] = [];
    for (let i = 0; i < 100; i++) remaining.push((await limits.consume('read', key)).remaining);
    expect(remaining).to.deep.equal(Array.from({ length: 100 }, (_, i) => 999 - i));
    // leases of 1, 2, 4, ... 32, then 50 each, the next claimed while a quarter of the one
    // in hand is left: the counter holds what was claimed, a little ahead
    const counted = Number(await redis().get(`${prefix}:read:${key}`));
    expect(counted).to.be.within(100, 100 + 50);
  });

  it("claims a busy key's next lease before its points run out, so its requests never wait on Redis", async () => {
    const prefix = `rl-test-${randomUUID()}`;
    // limit 2000: leases of 1, 2, ... 32, then the largest, 64
    const limits = new RateLimits({ redis: redis(), prefix, perMinute: perMinute(2000) });
    const key = randomUUID();
    const counter = () => redis().get(`${prefix}:read:${key}`).then(Number);
    for (let i = 0; i < 63; i++) await limits.consume('read', key);
    expect(await counter()).to.equal(63 + 64); // the first lease of 64 claimed as 63 ran out
    // 48 of the 64 spent: 16 left, a quarter, and nothing claimed ahead yet
    for (let i = 0; i < 48; i++) expect(limits.consumeNow('read', key)).to.not.equal(undefined);
    expect(await counter()).to.equal(127);
    // one more leaves 15: the next lease is claimed while they are spent
    expect(limits.consumeNow('read', key)).to.deep.include({ remaining: 2000 - 112 });
    expect(await counter()).to.equal(127 + 64);
    // every request from here to the end of that lease is answered at once, Remaining exact
    const remaining: number[] = [];
    for (let i = 0; i < 15 + 64; i++) remaining.push(limits.consumeNow('read', key)!.remaining);
    expect(remaining).to.deep.equal(Array.from({ length: 79 }, (_, i) => 2000 - 113 - i));
  });

  it('answers from the points in hand without waiting (consumeNow), and only consume() claims', async () => {
    const prefix = `rl-test-${randomUUID()}`;
    const limits = new RateLimits({ redis: redis(), prefix, perMinute: perMinute(1000) });
    const key = randomUUID();
    // nothing claimed yet: no answer without Redis
    expect(limits.consumeNow('read', key)).to.equal(undefined);
    expect((await limits.consume('read', key)).remaining).to.equal(999); // a lease of 1, spent
    expect(limits.consumeNow('read', key)).to.equal(undefined);
    expect((await limits.consume('read', key)).remaining).to.equal(998); // a lease of 2
    // the lease's second point, then nothing in hand again
    expect(limits.consumeNow('read', key)).to.deep.include({ limit: 1000, remaining: 997 });
    expect(limits.consumeNow('read', key)).to.equal(undefined);
    expect(Number(await redis().get(`${prefix}:read:${key}`))).to.equal(3);
    // a window this process knows is spent is refused at once, with its state
    const tiny = new RateLimits({ redis: redis(), prefix, perMinute: perMinute(1) });
    await tiny.consume('write', key);
    expect(() => tiny.consumeNow('write', key)).to.throw(RateLimitedError);
  });

  it('answers the 429 with Retry-After and the window state once the limit is spent', async () => {
    const limits = new RateLimits({
      redis: redis(),
      prefix: `rl-test-${randomUUID()}`,
      perMinute: perMinute(3),
    });
    const key = randomUUID();
    const states = [];
    for (let i = 0; i < 3; i++) states.push(await limits.consume('write', key));
    expect(states.map((s) => s.remaining)).to.deep.equal([2, 1, 0]);
    const refusal = await limits.consume('write', key).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refusal).to.be.instanceOf(RateLimitedError);
    const { retryAfterSeconds, window: state } = refusal as RateLimitedError;
    expect(retryAfterSeconds).to.be.within(1, 60);
    expect(state).to.include({ limit: 3, remaining: 0 });
    expect(state!.reset).to.be.greaterThan(Date.now() / 1000);
    // the other bucket of the same key is separate
    expect((await limits.consume('read', key)).remaining).to.equal(2);
  });

  it('starts a new window when the old one ends, in Redis and in the process', async () => {
    const leases = new WindowLeases({
      redis: redis(),
      keyPrefix: `rl-test-${randomUUID()}:`,
      limit: 2,
      windowMs: 300,
    });
    const key = randomUUID();
    const first = [await leases.spend(key), await leases.spend(key), await leases.spend(key)];
    expect(first.map((s) => s.admitted)).to.deep.equal([true, true, false]);
    await new Promise((resolve) => setTimeout(resolve, 350));
    const next = await leases.spend(key);
    expect(next.admitted).to.equal(true);
    expect(next.remaining).to.equal(1);
  });

  it('still limits every request when Redis does not answer (in-memory count, same limit)', async () => {
    const down = createRedis(
      { redisUrl: 'redis://127.0.0.1:1', redisClusterNodes: undefined },
      createLogger({ level: 'silent' }),
      'rate-limit test (no Redis)',
    );
    try {
      const limits = new RateLimits({ redis: down, perMinute: perMinute(2) });
      const answers = [];
      for (let i = 0; i < 3; i++) answers.push(await outcome(limits, 'k'));
      expect(answers).to.deep.equal(['admitted', 'admitted', 'refused']);
    } finally {
      down.disconnect();
    }
  });
});
