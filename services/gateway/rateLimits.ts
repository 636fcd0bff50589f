/**
 * Per-bucket rate limits: fixed one-minute windows counted atomically in Redis
 * (rate-limiter-flexible),
 * `read` (GET) and `write` (other methods) per credential, and one bucket per
 * client address for unauthenticated calls. When Redis is unreachable each
 * process falls back to an in-memory limiter with the same limits, so requests
 * are still limited and never hang on Redis.
 */
import type { RedisClient } from '../../shared/redis/redisClient';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { RateLimitedError } from '../../shared/errors/domainErrors';

export type Bucket = 'read' | 'write' | 'anon';

export interface RateLimitState {
  limit: number;
  remaining: number;
  /** Unix epoch seconds at which the window resets. */
  reset: number;
}

const WINDOW_SECONDS = 60;

export class RateLimits {
  private readonly limiters: Record<Bucket, RateLimiterRedis>;
  private readonly points: Record<Bucket, number>;

  constructor(options: { redis: RedisClient; perMinute: Record<Bucket, number>; prefix?: string }) {
    this.points = options.perMinute;
    const make = (bucket: Bucket) =>
      new RateLimiterRedis({
        storeClient: options.redis,
        keyPrefix: `${options.prefix ?? 'rl'}:${bucket}`,
        points: options.perMinute[bucket],
        duration: WINDOW_SECONDS,
        insuranceLimiter: new RateLimiterMemory({
          keyPrefix: `mem:${bucket}`,
          points: options.perMinute[bucket],
          duration: WINDOW_SECONDS,
        }),
      });
    this.limiters = { read: make('read'), write: make('write'), anon: make('anon') };
  }

  static bucketFor(method: string): Bucket {
    return method.toUpperCase() === 'GET' || method.toUpperCase() === 'HEAD' ? 'read' : 'write';
  }

  /** Counts one request; throws RateLimitedError (with the state) when over the limit. */
  async consume(bucket: Bucket, key: string): Promise<RateLimitState> {
    const limit = this.points[bucket];
    try {
      const res = await this.limiters[bucket].consume(key, 1);
      return this.state(limit, res);
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) {
        throw new RateLimitedError(
          Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)),
          this.state(limit, rejection),
        );
      }
      throw rejection;
    }
  }

  /** The requests per minute of `bucket`. */
  perMinute(bucket: Bucket): number {
    return this.points[bucket];
  }

  private state(limit: number, res: RateLimiterRes): RateLimitState {
    return {
      limit,
      remaining: Math.max(0, res.remainingPoints),
      reset: Math.ceil((Date.now() + res.msBeforeNext) / 1000),
    };
  }
}

export function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(state.limit),
    'X-RateLimit-Remaining': String(state.remaining),
    'X-RateLimit-Reset': String(state.reset),
  };
}
