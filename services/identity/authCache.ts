/**
 * A per-process cache of authenticated keys, so that most requests skip the key
 * lookup in Neo4j (one round trip of the fixed per-request cost).
 *
 * Revocation still takes effect at once, in every process: `graphctl keys revoke`
 * bumps a key epoch in Redis after its Neo4j commit, and a cached key is used only
 * while the epoch known before its lookup is still the current one. With a
 * RevocationFeed the epoch is pushed to the process and the revocation waits until
 * every process has seen it (no Redis round trip per request); while the feed's epoch
 * is not confirmed recently, it is read from Redis on each request (one GET, far
 * cheaper than the Neo4j lookup). When Redis does not answer, or the
 * connection drops, the cache is emptied and bypassed, so an outage can never serve a
 * revoked key. Entries also expire after AUTH_CACHE_TTL_S (0 turns the cache off).
 */
import type { RedisClient } from '../../shared/redis/redisClient';
import type { Principal } from '../../shared/http/principal';
import { AUTH_EPOCH_KEY, RevocationFeed } from './revocationFeed';

interface Entry {
  principal: Principal;
  epoch: string;
  expiresAt: number;
}

export interface AuthCacheOptions {
  redis: RedisClient;
  ttlSeconds: number;
  /** Pushes the epoch to this process; without it, each request reads it from Redis. */
  feed?: RevocationFeed;
  /** Bound on cached keys; the oldest entry goes first. */
  maxEntries?: number;
  now?: () => number;
}

export class AuthCache {
  private readonly entries = new Map<string, Entry>();
  /** Bound on cached keys. */
  readonly maxEntries: number;
  /** The clock entries expire by (Date.now unless a test gives its own). */
  readonly now: () => number;

  constructor(private readonly options: AuthCacheOptions) {
    this.maxEntries = options.maxEntries ?? 10_000;
    this.now = options.now ?? Date.now;
    options.redis.on('close', () => this.entries.clear());
  }

  /** How long a key stays cached after its lookup, in milliseconds. */
  get ttlMs(): number {
    return this.options.ttlSeconds * 1000;
  }

  get enabled(): boolean {
    return this.options.ttlSeconds > 0;
  }

  /** The current epoch, or undefined when the cache is off or Redis does not answer. */
  async epoch(): Promise<string | undefined> {
    if (!this.enabled) return undefined;
    const pushed = this.options.feed?.current();
    if (pushed !== undefined) return pushed;
    try {
      return (await this.options.redis.get(AUTH_EPOCH_KEY)) ?? '0';
    } catch {
      this.entries.clear();
      return undefined;
    }
  }

  /**
   * The cached principal for a token hash when the answer needs no Redis round trip:
   * the feed has a confirmed epoch and the key was looked up under it. Undefined means
   * "ask epoch() and get()", not "unknown key".
   */
  getNow(hash: string): Principal | undefined {
    if (!this.enabled) return undefined;
    const pushed = this.options.feed?.current();
    return pushed === undefined ? undefined : this.get(hash, pushed);
  }

  /** The cached principal for a token hash, if it was looked up under `epoch`. */
  get(hash: string, epoch: string): Principal | undefined {
    const entry = this.entries.get(hash);
    if (!entry) return undefined;
    if (entry.epoch !== epoch || entry.expiresAt <= this.now()) {
      this.entries.delete(hash);
      return undefined;
    }
    return entry.principal;
  }

  /**
   * The cached principal for a token hash whatever epoch it was looked up under: not
   * yet checked against revocations, only for starting per-key work (the key's rate
   * limit) alongside that check.
   */
  peek(hash: string): Principal | undefined {
    const entry = this.entries.get(hash);
    return entry && entry.expiresAt > this.now() ? entry.principal : undefined;
  }

  set(hash: string, epoch: string, principal: Principal): void {
    if (!this.enabled) return;
    this.entries.delete(hash);
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(hash, {
      principal,
      epoch,
      expiresAt: this.now() + this.ttlMs,
    });
  }

  get size(): number {
    return this.entries.size;
  }
}
