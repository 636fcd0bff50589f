/**
 * Unit tests of Authenticator.cachedPrincipal, the gateway's answer without waiting: the
 * hashes it keeps of the headers it answered must never change an answer (revocation,
 * expiry and bad credentials answer as they would with the token hashed each time).
 * The Redis side is tested through HTTP in test/auth.test.ts.
 */
import { EventEmitter } from 'node:events';
import { expect } from 'chai';
import type { Redis } from 'ioredis';
import type { Principal } from '../../shared/http/principal';
import type { Executor } from '../../shared/neo4j/executor';
import { AuthCache } from './authCache';
import { Authenticator } from './authenticator';
import { hashToken, mintToken } from './keyTokens';
import type { RevocationFeed } from './revocationFeed';

const principal = (keyId: string): Principal => ({
  userId: 'u',
  keyId,
  scopes: new Set(['graph:read']),
  projectAllowlist: null,
});

function authenticatorWith(ttlSeconds = 30) {
  let now = 1_000_000;
  let epoch: string | undefined = '7';
  const cache = new AuthCache({
    redis: new EventEmitter() as unknown as Redis,
    ttlSeconds,
    feed: { current: () => epoch } as unknown as RevocationFeed,
    now: () => now,
  });
  // cachedPrincipal never reaches Neo4j: a key it does not have is authenticate()'s
  const authenticator = new Authenticator({ executor: {} as Executor, cache });
  return {
    cache,
    authenticator,
    advance: (ms: number) => (now += ms),
    revoke: () => (epoch = String(Number(epoch) + 1)),
    unconfirm: () => (epoch = undefined),
    confirm: (value: string) => (epoch = value),
  };
}

describe('Authenticator.cachedPrincipal', () => {
  it('answers a cached key for as long as the cache does, request after request', () => {
    const { cache, authenticator, advance } = authenticatorWith(10);
    const token = mintToken();
    cache.set(hashToken(token), '7', principal('k1'));
    for (let i = 0; i < 3; i++)
      expect(authenticator.cachedPrincipal(`Bearer ${token}`)?.keyId).to.equal('k1');
    advance(10_000);
    expect(authenticator.cachedPrincipal(`Bearer ${token}`)).to.equal(undefined);
  });

  it('stops answering a key once it is revoked, though its header was answered before', () => {
    const { cache, authenticator, revoke } = authenticatorWith();
    const token = mintToken();
    cache.set(hashToken(token), '7', principal('k1'));
    expect(authenticator.cachedPrincipal(`Bearer ${token}`)?.keyId).to.equal('k1');
    revoke();
    expect(authenticator.cachedPrincipal(`Bearer ${token}`)).to.equal(undefined);
    // looked up again under the new epoch, it is answered again
    cache.set(hashToken(token), '8', principal('k1'));
    expect(authenticator.cachedPrincipal(`Bearer ${token}`)?.keyId).to.equal('k1');
  });

  it('waits (undefined) while the epoch is not confirmed, then answers again', () => {
    const { cache, authenticator, unconfirm, confirm } = authenticatorWith();
    const token = mintToken();
    cache.set(hashToken(token), '7', principal('k1'));
    expect(authenticator.cachedPrincipal(`Bearer ${token}`)?.keyId).to.equal('k1');
    unconfirm();
    expect(authenticator.cachedPrincipal(`Bearer ${token}`)).to.equal(undefined);
    confirm('7');
    expect(authenticator.cachedPrincipal(`Bearer ${token}`)?.keyId).to.equal('k1');
  });

  it('answers each header for its own key, and nothing for a header that is no token', () => {
    const { cache, authenticator } = authenticatorWith();
    const [a, b] = [mintToken(), mintToken()];
    cache.set(hashToken(a), '7', principal('ka'));
    cache.set(hashToken(b), '7', principal('kb'));
    expect(authenticator.cachedPrincipal(`Bearer ${a}`)?.keyId).to.equal('ka');
    expect(authenticator.cachedPrincipal(`Bearer ${b}`)?.keyId).to.equal('kb');
    expect(authenticator.cachedPrincipal(`Bearer ${a}`)?.keyId).to.equal('ka');
    // padded past what is remembered: still answered, hashed each time
    const padded = `Bearer ${b}${' '.repeat(300)}`;
    expect(authenticator.cachedPrincipal(padded)?.keyId).to.equal('kb');
    expect(authenticator.cachedPrincipal(padded)?.keyId).to.equal('kb');
    expect(authenticator.cachedPrincipal(`Bearer ${mintToken()}`)).to.equal(undefined);
    expect(authenticator.cachedPrincipal('Bearer not-a-token')).to.equal(undefined);
    expect(authenticator.cachedPrincipal(`Basic ${a}`)).to.equal(undefined);
    expect(authenticator.cachedPrincipal(undefined)).to.equal(undefined);
  });
});
