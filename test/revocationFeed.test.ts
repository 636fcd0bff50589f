/**
 * Revocations pushed to each process (RevocationFeed) against the real Redis: a bump
 * reaches the feed without a request asking for it, a feed whose epoch is not confirmed
 * recently answers nothing (so AuthCache asks Redis on each request), a bump made while
 * the subscription was down is seen all the same, and a revocation returns once every
 * live process has seen it.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { awaitEpochSeen, bumpAuthEpoch, RevocationFeed } from '../services/identity/revocationFeed';
import { eventually } from './support/decisionFixtures';
import { currentHarness } from './support/harness';
import { onEveryRedisAsAdmin } from './support/redisSupport';

describe('revocations pushed to each process (RevocationFeed)', function () {
  this.timeout(30_000);
  const redis = () => currentHarness().service.redis;
  const feeds: RevocationFeed[] = [];
  const feed = (options: { heartbeatMs?: number; staleAfterMs?: number; now?: () => number }) => {
    const made = new RevocationFeed({ redis: redis(), ...options });
    feeds.push(made);
    return made;
  };
  afterEach(async () => {
    await Promise.all(feeds.splice(0).map((f) => f.close()));
  });

  it('knows the stored epoch once subscribed, and each bump as it is published', async () => {
    const watched = feed({});
    const first = await eventually('the first epoch', async () => watched.current(), 5000, 5);
    expect(first).to.equal((await redis().get('auth:epoch')) ?? '0');
    await bumpAuthEpoch(redis());
    const stored = (await redis().get('auth:epoch')) as string;
    expect(Number(stored)).to.be.greaterThan(Number(first));
    // no request asks Redis: the published value arrives by itself
    await eventually(
      'the bumped epoch',
      async () => (watched.current() === stored ? true : undefined),
      1000,
      5,
    );
  });

  it('answers nothing once no confirmation has been answered within the stale bound', async () => {
    let clock = Date.now();
    // heartbeats too rare to run during the test: only the subscription confirms it
    const watched = feed({ heartbeatMs: 3_600_000, staleAfterMs: 1000, now: () => clock });
    await eventually('the first epoch', async () => watched.current(), 5000, 5);
    clock += 999;
    expect(watched.current()).to.be.a('string');
    clock += 2;
    expect(watched.current()).to.equal(undefined);
  });

  it('stays confirmed while its heartbeat reads the epoch', async () => {
    const watched = feed({ heartbeatMs: 20, staleAfterMs: 200 });
    await eventually('the first epoch', async () => watched.current(), 5000, 5);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(watched.current()).to.be.a('string');
  });

  it('sees a bump made while its subscription is down, from its next confirmation', async () => {
    const watched = feed({ heartbeatMs: 50 });
    const before = await eventually('the first epoch', async () => watched.current(), 5000, 5);
    // cut the subscription as a network fault would, and bump while it is gone
    await onEveryRedisAsAdmin(currentHarness().config, 'CLIENT', 'KILL', 'TYPE', 'pubsub');
    const epoch = await bumpAuthEpoch(redis());
    expect(epoch).to.be.greaterThan(Number(before));
    await eventually(
      'the bump',
      async () => (watched.current() === String(epoch) ? true : undefined),
      5000,
      5,
    );
  });

  it('returns from a revocation once every live process has seen it', async () => {
    const watched = feed({});
    await eventually('the first epoch', async () => watched.current(), 5000, 5);
    const started = Date.now();
    const epoch = await bumpAuthEpoch(redis());
    await awaitEpochSeen(redis(), epoch);
    // seen at once: far less than the stale bound it would otherwise wait
    expect(Date.now() - started).to.be.below(900);
    expect(watched.current()).to.equal(String(epoch));
  });

  it('waits for a registered process that has not seen the bump until its feed is stale', async () => {
    // a process whose last confirmation is now, and whose feed never acknowledges
    const silent = `silent-${randomUUID()}`;
    await redis().hset('auth:epoch:feeds', silent, `0 ${Date.now()}`);
    try {
      const started = Date.now();
      await awaitEpochSeen(redis(), await bumpAuthEpoch(redis()));
      // by then its feed has gone a whole stale bound without a confirmation
      expect(Date.now() - started).to.be.within(1000, 5000);
    } finally {
      await redis().hdel('auth:epoch:feeds', silent);
    }
  });

  it('keeps its registration in one key that expires, and removes it when closed', async () => {
    const watched = feed({});
    await eventually('the first epoch', async () => watched.current(), 5000, 5);
    expect(await redis().hget('auth:epoch:feeds', watched.id)).to.match(/^\d+ \d+$/);
    const ttl = await redis().pttl('auth:epoch:feeds');
    expect(ttl).to.be.within(1, 60_000);
    await watched.close();
    expect(await redis().hget('auth:epoch:feeds', watched.id)).to.equal(null);
  });

  it('forgets the registration of a process gone for a minute at the next revocation', async () => {
    const gone = `gone-${randomUUID()}`;
    await redis().hset('auth:epoch:feeds', gone, `0 ${Date.now() - 61_000}`);
    await awaitEpochSeen(redis(), await bumpAuthEpoch(redis()));
    expect(await redis().hget('auth:epoch:feeds', gone)).to.equal(null);
  });
});
