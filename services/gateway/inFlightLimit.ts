/**
 * Requests in flight per key: a key may have at most `max` requests being served by
 * one gateway process at a time; one more answers 429 with Retry-After (and the
 * X-RateLimit-* headers of its bucket), whatever its rate-limit window still allows.
 * It bounds what one caller can hold at once (Neo4j sessions and transactions, bodies
 * being read, memory) where the per-minute rate limit bounds only how many start.
 * In process: a Map of counters, no Redis round trip. A slot is held until both the
 * response has closed (node emits 'close' exactly once, both after the response has
 * been sent and when its connection is cut first) and the work answering it has
 * settled (holdUntilSettled): a caller who hangs up does not get its slot back while
 * the work it started still runs (the work is cancelled, see callerCancellation.ts,
 * and the slot comes back when it has stopped). A slot is taken after authentication
 * and the rate limit (a Redis round trip at times): a caller that hung up meanwhile has
 * a response already closed, whose 'close' will not come again, so it is not counted
 * at all (its slot would never be given back).
 */
import type { Response } from 'express';
import { RateLimitedError } from '../../shared/errors/domainErrors';
import type { RateLimitState } from './rateLimits';

/** One taken slot: what still holds it (the open response, work not yet settled). */
interface Slot {
  keyId: string;
  holders: number;
}

export class InFlightLimit {
  private readonly counts = new Map<string, number>();
  private readonly slots = new WeakMap<Response, Slot>();

  constructor(
    private readonly max: number,
    /** Told of each refusal (the gateway's metrics). */
    private readonly onRefused?: () => void,
  ) {}

  /** Takes a slot for `keyId` until `res` is sent or closed, or throws the 429. */
  enter(keyId: string, res: Response, window: RateLimitState): void {
    const count = this.counts.get(keyId) ?? 0;
    if (count >= this.max) {
      this.onRefused?.();
      throw new RateLimitedError(1, window);
    }
    if (res.destroyed || res.writableFinished) return;
    this.counts.set(keyId, count + 1);
    const slot: Slot = { keyId, holders: 1 };
    this.slots.set(res, slot);
    res.once('close', () => this.release(slot));
  }

  /**
   * Keeps the slot `res` holds (if any) taken until `work` settles as well. `work`'s
   * failure is left to its own handlers: this only waits for it.
   */
  holdUntilSettled(res: Response, work: Promise<unknown>): void {
    const slot = this.slots.get(res);
    if (!slot || slot.holders === 0) return;
    slot.holders += 1;
    const settled = () => this.release(slot);
    work.then(settled, settled);
  }

  /** Requests in flight for `keyId` (tests, metrics). */
  inFlight(keyId: string): number {
    return this.counts.get(keyId) ?? 0;
  }

  private release(slot: Slot): void {
    slot.holders -= 1;
    if (slot.holders > 0) return;
    const left = (this.counts.get(slot.keyId) ?? 1) - 1;
    if (left <= 0) this.counts.delete(slot.keyId);
    else this.counts.set(slot.keyId, left);
  }
}
