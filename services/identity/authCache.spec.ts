/**
 * Unit tests of the authentication cache's rules (the Redis side, revocation across
 * processes, is tested through HTTP in test/auth.test.ts against the real Redis).
 */
import { EventEmitter } from 'node:events';
import { expect } from 'chai';
import type { Redis } from 'ioredis';
import type { Principal } from '../../shared/http/principal';
import { AuthCache } from './authCache';
import type { RevocationFeed } from './revocationFeed';

/** Only what AuthCache calls: `get` and the `close` event. */
class EpochSource extends EventEmitter {
  epoch: string | null = '3';
  failing = false;
  async get(): Promise<string | null> {
    if (this.failing) throw new Error('Connection is closed.');
    return this.epoch;
  }
}

const principal = (keyId: string): Principal => ({
  userId: 'u',
  keyId,
  scopes: new Set(['graph:write']),
  projectAllowlist: null,
});

function cacheWith(source: EpochSource, ttlSeconds = 30, maxEntries?: number) {
  let now = 1_000_000;
  const cache = new AuthCache({
    redis: source as unknown as Redis,
    ttlSeconds,
    maxEntries,
    now: () => now,
  });
  return { cache, advance: (ms: number) => (now += ms) };
}

describe('AuthCache', () => {
  it('serves a key only under the epoch it was looked up with', async () => {
    const source = new EpochSource();
    const { cache } = cacheWith(source);
    cache.set('h1', (await cache.epoch()) as string, principal('k1'));
    expect(cache.get('h1', '3')?.keyId).to.equal('k1');
    source.epoch = '4'; // a revocation somewhere
    expect(cache.get('h1', (await cache.epoch()) as string)).to.equal(undefined);
    expect(cache.size).to.equal(0);
  });

  it('reads a missing epoch as "0" and expires entries after the TTL', async () => {
    const source = new EpochSource();
    source.epoch = null;
    const { cache, advance } = cacheWith(source, 10);
    expect(await cache.epoch()).to.equal('0');
    cache.set('h1', '0', principal('k1'));
    advance(9_999);
    expect(cache.get('h1', '0')?.keyId).to.equal('k1');
    advance(1);
    expect(cache.get('h1', '0')).to.equal(undefined);
  });

  it('is bypassed and emptied when Redis does not answer or the connection closes', async () => {
    const source = new EpochSource();
    const { cache } = cacheWith(source);
    cache.set('h1', '3', principal('k1'));
    source.failing = true;
    expect(await cache.epoch()).to.equal(undefined);
    expect(cache.size).to.equal(0);
    source.failing = false;
    cache.set('h2', '3', principal('k2'));
    source.emit('close');
    expect(cache.size).to.equal(0);
  });

  it('keeps at most maxEntries keys, dropping the oldest', () => {
    const { cache } = cacheWith(new EpochSource(), 30, 2);
    cache.set('h1', '3', principal('k1'));
    cache.set('h2', '3', principal('k2'));
    cache.set('h3', '3', principal('k3'));
    expect(cache.size).to.equal(2);
    expect(cache.get('h1', '3')).to.equal(undefined);
    expect(cache.get('h3', '3')?.keyId).to.equal('k3');
  });

  it('peeks at a cached key whatever its epoch, never past its TTL', () => {
    const { cache, advance } = cacheWith(new EpochSource(), 30);
    cache.set('h1', '3', principal('k1'));
    expect(cache.peek('h1')?.keyId).to.equal('k1');
    expect(cache.get('h1', '4')).to.equal(undefined); // a bumped epoch: not served ...
    cache.set('h2', '3', principal('k2'));
    expect(cache.peek('h2')?.keyId).to.equal('k2'); // ... though peek still names the key
    expect(cache.peek('unknown')).to.equal(undefined);
    advance(30_000);
    expect(cache.peek('h2')).to.equal(undefined);
  });

  it('answers at once (getNow) only under an epoch the feed has confirmed', () => {
    let pushed: string | undefined;
    const cache = new AuthCache({
      redis: new EpochSource() as unknown as Redis,
      ttlSeconds: 30,
      feed: { current: () => pushed } as unknown as RevocationFeed,
    });
    cache.set('h1', '3', principal('k1'));
    expect(cache.getNow('h1')).to.equal(undefined); // no confirmed epoch: ask Redis
    pushed = '3';
    expect(cache.getNow('h1')?.keyId).to.equal('k1');
    expect(cache.getNow('unknown')).to.equal(undefined);
    pushed = '4'; // a revocation since the lookup
    expect(cache.getNow('h1')).to.equal(undefined);
    expect(cache.peek('h1')).to.equal(undefined); // and the stale entry is gone
  });

  it('caches nothing with a TTL of 0', async () => {
    const { cache } = cacheWith(new EpochSource(), 0);
    expect(await cache.epoch()).to.equal(undefined);
    cache.set('h1', '3', principal('k1'));
    expect(cache.size).to.equal(0);
  });
});
