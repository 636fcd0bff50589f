/**
 * Per-bucket rate limits: fixed one-minute windows counted in Redis, `read` (GET and
 * HEAD) and `write` (other methods) per credential, and one bucket per client address
 * for unauthenticated calls.
 *
 * Leases. Counting each request in Redis cost a Redis round trip per request, the
 * largest part of the gateway's fixed cost. A process instead claims points from the
 * window's counter in Redis a few at a time (WindowLeases) and spends them in memory.
 * Claims are atomic and never grant past the limit, so all processes together never
 * admit more requests in a window than the limit. A caller making a few requests a
 * minute is still counted one request per claim, exactly as before; a busy caller costs
 * one Redis call per lease. The price, with several processes: points another process
 * has claimed and not yet spent are not available here, so a caller spread over N
 * processes can be refused up to (N - 1) x (lease - 1) requests early in a window. And
 * X-RateLimit-Remaining is this process's figure as of its last claim: it counts as
 * spent what other processes hold unspent (so it can be low) and misses what they
 * claimed since (so it can be high), by up to about two leases per other process when
 * requests are spread evenly; asking Redis on every request to make it exact would undo the
 * leases. With one process the headers are exact.
 *
 * When Redis does not answer, each process falls back to an in-memory limiter with the
 * same limits, so requests are still limited and never hang on Redis.
 */
import type { ServerResponse } from 'node:http';
import type { RedisClient } from '../../shared/redis/redisClient';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { RateLimitedError } from '../../shared/errors/domainErrors';
import { Spent, WindowLeases } from './windowLeases';

export type Bucket = 'read' | 'write' | 'anon';

export interface RateLimitState {
  limit: number;
  remaining: number;
  /** Unix epoch seconds at which the window resets. */
  reset: number;
}

const WINDOW_SECONDS = 60;

export class RateLimits {
  private readonly leases: Record<Bucket, WindowLeases>;
  private readonly fallback: Record<Bucket, RateLimiterMemory>;
  private readonly points: Record<Bucket, number>;
  private readonly onRefused?: (bucket: Bucket) => void;

  constructor(options: {
    redis: RedisClient;
    perMinute: Record<Bucket, number>;
    prefix?: string;
    /** Told of each request refused over its bucket's limit (the gateway's metrics). */
    onRefused?: (bucket: Bucket) => void;
  }) {
    this.points = options.perMinute;
    this.onRefused = options.onRefused;
    const leases = (bucket: Bucket) =>
      new WindowLeases({
        redis: options.redis,
        keyPrefix: `${options.prefix ?? 'rl'}:${bucket}:`,
        limit: options.perMinute[bucket],
        windowMs: WINDOW_SECONDS * 1000,
      });
    const memory = (bucket: Bucket) =>
      new RateLimiterMemory({
        keyPrefix: `mem:${bucket}`,
        points: options.perMinute[bucket],
        duration: WINDOW_SECONDS,
      });
    this.leases = { read: leases('read'), write: leases('write'), anon: leases('anon') };
    this.fallback = { read: memory('read'), write: memory('write'), anon: memory('anon') };
  }

  /** GET and HEAD read; every other method could write (the maintenance check's rule too). */
  static bucketFor(method: string): Bucket {
    const upper = method.toUpperCase();
    return upper === 'GET' || upper === 'HEAD' ? 'read' : 'write';
  }

  /** Counts one request; throws RateLimitedError (with the state) when over the limit. */
  async consume(bucket: Bucket, key: string): Promise<RateLimitState> {
    let spent;
    try {
      spent = await this.leases[bucket].spend(key);
    } catch {
      return this.consumeInMemory(bucket, key);
    }
    return this.admitted(bucket, spent);
  }

  /**
   * consume() answered from the points this process holds, without waiting: the state,
   * or RateLimitedError thrown, or undefined when the answer needs Redis (consume() then).
   */
  consumeNow(bucket: Bucket, key: string): RateLimitState | undefined {
    const spent = this.leases[bucket].spendNow(key);
    return spent && this.admitted(bucket, spent);
  }

  /** The state of a spent point, or its window's 429. */
  private admitted(bucket: Bucket, spent: Spent): RateLimitState {
    const state = {
      limit: this.points[bucket],
      remaining: spent.remaining,
      reset: Math.ceil(spent.resetAt / 1000),
    };
    if (!spent.admitted) {
      this.onRefused?.(bucket);
      throw new RateLimitedError(
        Math.max(1, Math.ceil((spent.resetAt - Date.now()) / 1000)),
        state,
      );
    }
    return state;
  }

  /** The requests per minute of `bucket`. */
  perMinute(bucket: Bucket): number {
    return this.points[bucket];
  }

  /** Redis did not answer: this process's own count, with the same limit. */
  private async consumeInMemory(bucket: Bucket, key: string): Promise<RateLimitState> {
    const limit = this.points[bucket];
    const state = (res: RateLimiterRes) => ({
      limit,
      remaining: Math.max(0, res.remainingPoints),
      reset: Math.ceil((Date.now() + res.msBeforeNext) / 1000),
    });
    try {
      return state(await this.fallback[bucket].consume(key, 1));
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      this.onRefused?.(bucket);
      throw new RateLimitedError(
        Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)),
        state(rejection),
      );
    }
  }
}

/** Sets the X-RateLimit-* headers of `state` on an answer (every authenticated request's). */
export function setRateLimitHeaders(res: ServerResponse, state: RateLimitState): void {
  res.setHeader('X-RateLimit-Limit', String(state.limit));
  res.setHeader('X-RateLimit-Remaining', String(state.remaining));
  res.setHeader('X-RateLimit-Reset', String(state.reset));
}
