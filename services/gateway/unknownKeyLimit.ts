/**
 * Neo4j lookups of unknown API keys, per client address: a key that is not cached
 * costs one lookup, and random well-formed keys would buy one each. Each address
 * may have `perMinute` lookups that found nothing in a fixed one-minute window
 * (RATE_LIMIT_ANON_PER_MIN, the budget of unauthenticated calls); past it, an
 * uncached key from that address is refused with 429 before its lookup until the
 * window ends. Known keys never count, so a client whose keys are valid is refused
 * only while its address is sending unknown ones. Kept in process (no Redis round
 * trip), for at most `maxAddresses` addresses (the oldest window goes first).
 */
import { RateLimitedError } from '../../shared/errors/domainErrors';

const WINDOW_MS = 60_000;

interface Window {
  startedAt: number;
  misses: number;
}

export class UnknownKeyLimit {
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly perMinute: number,
    private readonly maxAddresses = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  private current(address: string): Window | undefined {
    const window = this.windows.get(address);
    if (window && this.now() - window.startedAt >= WINDOW_MS) {
      this.windows.delete(address);
      return undefined;
    }
    return window;
  }

  /** Throws the 429 when `address` has spent its lookups of unknown keys. */
  refuseIfSpent(address: string): void {
    const window = this.current(address);
    if (!window || window.misses < this.perMinute) return;
    const resetMs = window.startedAt + WINDOW_MS;
    throw new RateLimitedError(Math.max(1, Math.ceil((resetMs - this.now()) / 1000)), {
      limit: this.perMinute,
      remaining: 0,
      reset: Math.ceil(resetMs / 1000),
    });
  }

  /** Counts a lookup from `address` that found no key. */
  recordMiss(address: string): void {
    const window = this.current(address);
    if (window) {
      window.misses += 1;
      return;
    }
    if (this.windows.size >= this.maxAddresses) {
      const oldest = this.windows.keys().next();
      if (!oldest.done) this.windows.delete(oldest.value);
    }
    this.windows.set(address, { startedAt: this.now(), misses: 1 });
  }
}
