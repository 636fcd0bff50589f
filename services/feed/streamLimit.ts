/**
 * How many feed streams each key holds open in this process: a stream is long-lived, so
 * the per-key bound (FEED_STREAMS_PER_KEY) keeps one key from tying up a process's
 * connections and its polls of the feed index. One more answers 429 rate_limited.
 */
import { RateLimitedError } from '../../shared/errors/domainErrors';

export class StreamLimit {
  private readonly open = new Map<string, number>();

  constructor(private readonly perKey: number) {}

  /** Takes a slot for `keyId`; the returned function gives it back (once). */
  acquire(keyId: string): () => void {
    const held = this.open.get(keyId) ?? 0;
    if (held >= this.perKey) throw new RateLimitedError(5);
    this.open.set(keyId, held + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const now = (this.open.get(keyId) ?? 1) - 1;
      if (now <= 0) this.open.delete(keyId);
      else this.open.set(keyId, now);
    };
  }
}
