/**
 * The points of fixed windows counted in Redis, claimed by this process a lease at a
 * time and spent in memory (why: see RateLimits).
 *
 * A claim adds the lease's size to the window's counter in one Lua script and is granted
 * only the part that stays within the limit, so the processes sharing a counter together
 * never grant more than the limit. The first claim of a window is one point and each
 * later claim doubles, up to a twentieth of the limit (at most 64): the points a process
 * holds unspent at any time stay small next to the limit. Once a claim finds the counter
 * at the limit, the window is refused here until it ends without asking Redis again: a
 * counter only grows within its window.
 *
 * One claim per key is in flight at a time. A key whose leases have grown to the largest
 * size (a busy one) claims the next lease when a quarter of the one in hand is left, while
 * its last points are spent, so its requests do not all wait on a round trip to Redis
 * every lease; a key that seldom asks never claims ahead. Requests that find no point in
 * hand wait for the claim in flight. The window's end is measured from when the
 * claim was sent, so this process never spends a window's points after Redis has started
 * the next one: points in hand when their window ends are dropped, and a claim answered in
 * a new window replaces them instead of adding to them.
 */
import { startEarly } from '../../shared/async/promises';
import type { RedisClient } from '../../shared/redis/redisClient';

/** INCRBY the window's counter; start its window when it has none. Answers {count, ttl ms}. */
const CLAIM = `
local count = redis.call('INCRBY', KEYS[1], ARGV[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  ttl = tonumber(ARGV[2])
end
return {count, ttl}`;

/** Past this many leases, those of ended windows are dropped at the next claim. */
const SWEEP_AT = 10_000;

export interface Spent {
  admitted: boolean;
  /**
   * Points of the window left as this process last saw the counter: its own unspent
   * points and those no process had claimed at its last claim (other processes' later
   * claims are not seen until the next one).
   */
  remaining: number;
  /** When the window ends, in epoch milliseconds. */
  resetAt: number;
}

interface Lease {
  resetAt: number;
  /** Claimed by this process and not yet spent. */
  left: number;
  /** The limit less the window's counter at the last claim: points no process held then. */
  unclaimed: number;
  /** Points the next claim asks for. */
  next: number;
  claiming?: Promise<void>;
}

export class WindowLeases {
  private readonly leases = new Map<string, Lease>();
  private readonly maxLease: number;
  /** Points left in a lease of the largest size when the next is claimed (0: never ahead). */
  private readonly claimAheadAt: number;

  constructor(
    private readonly options: {
      redis: RedisClient;
      keyPrefix: string;
      limit: number;
      windowMs: number;
    },
  ) {
    this.maxLease = Math.max(1, Math.min(64, Math.floor(options.limit / 20)));
    this.claimAheadAt = this.maxLease >= 4 ? this.maxLease / 4 : 0;
  }

  /** Spends one point of `key`'s window; rejects only when Redis does not answer. */
  async spend(key: string): Promise<Spent> {
    for (;;) {
      const spent = this.spendNow(key);
      if (spent) return spent;
      const lease = this.leases.get(key);
      if (lease?.claiming) await lease.claiming;
      else await this.claim(key, lease);
    }
  }

  /**
   * Spends one point of `key`'s window from the lease in hand, or answers a window this
   * process knows is used up; undefined when that takes a claim (none in hand, or one
   * being claimed), which spend() makes. A lease of the largest size running low is
   * claimed ahead here, while points are still in hand.
   */
  spendNow(key: string): Spent | undefined {
    const lease = this.inWindow(key);
    if (!lease) return undefined;
    if (lease.left > 0) {
      lease.left -= 1;
      const low = lease.next === this.maxLease && lease.left < this.claimAheadAt;
      if (low && !lease.claiming && lease.unclaimed > 0)
        // awaited by the requests that find no point in hand before it answers (spend)
        startEarly(this.claim(key, lease));
      return { admitted: true, remaining: lease.unclaimed + lease.left, resetAt: lease.resetAt };
    }
    if (lease.claiming || lease.unclaimed > 0) return undefined;
    return { admitted: false, remaining: 0, resetAt: lease.resetAt };
  }

  /** `key`'s lease, without the points of a window that has ended. */
  private inWindow(key: string): Lease | undefined {
    const lease = this.leases.get(key);
    if (!lease || lease.resetAt > Date.now()) return lease;
    if (lease.claiming) {
      lease.left = 0;
      return lease;
    }
    this.leases.delete(key);
    return undefined;
  }

  private claim(key: string, previous: Lease | undefined): Promise<void> {
    // a new lease is read only once its first claim has answered
    const lease: Lease = previous ?? { resetAt: Infinity, left: 0, unclaimed: 1, next: 1 };
    if (!previous) {
      if (this.leases.size >= SWEEP_AT) this.sweep(Date.now());
      this.leases.set(key, lease);
    }
    const size = lease.next;
    const sent = Date.now();
    lease.claiming = (
      this.options.redis.eval(
        CLAIM,
        1,
        this.options.keyPrefix + key,
        size,
        this.options.windowMs,
      ) as Promise<[number, number]>
    )
      .then(([count, ttl]) => {
        const { limit, windowMs } = this.options;
        const granted = Math.max(0, Math.min(size, limit - (count - size)));
        // both ends are measured from below, so one window's differ by less than its
        // length; a claim counted in the next window does not add to the last one's points
        const sameWindow = sent + ttl < lease.resetAt + windowMs / 2;
        lease.left = (sameWindow ? lease.left : 0) + granted;
        lease.unclaimed = Math.max(0, limit - count);
        lease.resetAt = sent + ttl;
        lease.next = Math.min(this.maxLease, size * 2);
      })
      .catch((error: unknown) => {
        if (this.leases.get(key) === lease) this.leases.delete(key);
        throw error;
      })
      .finally(() => {
        lease.claiming = undefined;
      });
    return lease.claiming;
  }

  private sweep(at: number): void {
    for (const [key, lease] of this.leases) {
      if (!lease.claiming && lease.resetAt <= at) this.leases.delete(key);
    }
  }
}
