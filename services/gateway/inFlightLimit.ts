/**
 * Requests in flight per key: a key may have at most `max` requests being served by
 * one gateway process at a time; one more answers 429 with Retry-After (and the
 * X-RateLimit-* headers of its bucket), whatever its rate-limit window still allows.
 * It bounds what one caller can hold at once (Neo4j sessions and transactions, bodies
 * being read, memory) where the per-minute rate limit bounds only how many start.
 * In process: a Map of counters, no Redis round trip; a slot is freed once, on the
 * response's 'close', which node emits exactly once, both after the response has been
 * sent and when its connection is cut first. A slot is taken after authentication and
 * the rate limit (a Redis round trip at times): a caller that hung up meanwhile has a
 * response already closed, whose 'close' will not come again, so it is not counted at
 * all (its slot would never be given back).
 */
import type { Response } from 'express';
import { RateLimitedError } from '../../shared/errors/domainErrors';
import type { RateLimitState } from './rateLimits';

export class InFlightLimit {
  private readonly counts = new Map<string, number>();

  constructor(private readonly max: number) {}

  /** Takes a slot for `keyId` until `res` is sent or closed, or throws the 429. */
  enter(keyId: string, res: Response, window: RateLimitState): void {
    const count = this.counts.get(keyId) ?? 0;
    if (count >= this.max) throw new RateLimitedError(1, window);
    if (res.destroyed || res.writableFinished) return;
    this.counts.set(keyId, count + 1);
    res.once('close', () => {
      const left = (this.counts.get(keyId) ?? 1) - 1;
      if (left <= 0) this.counts.delete(keyId);
      else this.counts.set(keyId, left);
    });
  }

  /** Requests in flight for `keyId` (tests, metrics). */
  inFlight(keyId: string): number {
    return this.counts.get(keyId) ?? 0;
  }
}
