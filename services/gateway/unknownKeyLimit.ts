/**
 * Neo4j lookups of unknown API keys, per client address: a key that is not cached
 * costs one lookup, and random well-formed keys would buy one each. Each address
 * may have `perMinute` lookups that found nothing in a fixed one-minute window
 * (RATE_LIMIT_ANON_PER_MIN, the budget of unauthenticated calls); past it, the address
 * is `spent` until the window ends, and the Authenticator looks its uncached keys up
 * gathered with others in one statement (KeyLookupBatch) instead of one by one. A valid
 * key is never refused for it: the budget bounds what a flood costs Neo4j, not who is
 * served. Known keys never count. Kept in process (no Redis round trip), for at most
 * `maxAddresses` addresses (the oldest window goes first).
 */
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

  /** Whether `address` has spent its lookups of unknown keys in the current window. */
  spent(address: string): boolean {
    const window = this.current(address);
    return window !== undefined && window.misses >= this.perMinute;
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
