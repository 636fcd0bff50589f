/**
 * One stream's side of its project's shared poll (FeedPolls): the events the poll handed
 * over and not yet written, taken in order by the stream. A stream whose reader falls
 * behind by more than MAX_WAITING events drops them and is told to catch up with reads of
 * its own (it stays a follower meanwhile, so nothing after is lost): a slow reader never
 * makes a process hold an unbounded backlog.
 */
import type { Principal } from '../../shared/http/principal';
import type { FeedEventRecord } from './feedEvent';
import type { Follower } from './feedPolls';

const MAX_WAITING = 1_000;

export type InboxTake =
  | { kind: 'events'; events: FeedEventRecord[] }
  | { kind: 'behind' }
  | { kind: 'failed'; error: unknown }
  | { kind: 'idle' };

export class FeedInbox implements Follower {
  private waiting: FeedEventRecord[] = [];
  private behind = false;
  private failure: { error: unknown } | undefined;
  private wake: (() => void) | undefined;

  constructor(readonly principal: Principal) {}

  deliver(events: readonly FeedEventRecord[]): void {
    if (events.length === 0) return;
    if (this.waiting.length + events.length > MAX_WAITING) {
      this.waiting = [];
      this.behind = true;
    } else this.waiting.push(...events);
    this.wake?.();
  }

  fail(error: unknown): void {
    this.failure = { error };
    this.wake?.();
  }

  /** What came, else waits up to `ms` (or until `signal` aborts) and answers 'idle'. */
  async take(ms: number, signal?: AbortSignal): Promise<InboxTake> {
    const now = this.ready();
    if (now || ms <= 0 || signal?.aborted) return now ?? { kind: 'idle' };
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        this.wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal?.addEventListener('abort', done, { once: true });
      this.wake = done;
    });
    return this.ready() ?? { kind: 'idle' };
  }

  private ready(): InboxTake | undefined {
    if (this.failure) return { kind: 'failed', error: this.failure.error };
    if (this.behind) {
      this.behind = false;
      return { kind: 'behind' };
    }
    if (this.waiting.length === 0) return undefined;
    const events = this.waiting;
    this.waiting = [];
    return { kind: 'events', events };
  }
}
