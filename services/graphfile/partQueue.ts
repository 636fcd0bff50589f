/**
 * The parts of a staged import's content that its lanes share (importStaging.ts): each
 * lane takes the next part no lane has taken yet. The node, port and wire records are
 * there from the start; the rest of the content (its findings) is added once
 * its check has ended, so a lane that finds nothing to take meanwhile waits for it. A
 * lane stops taking parts once the queue is stopped (a refusal, or another lane's error),
 * or once every part was taken after the last were added.
 */
import type { NewLineContentPart } from '../graph';

export class PartQueue {
  private readonly sources: Iterator<NewLineContentPart>[];
  /** Whether the last parts were added: a lane that finds none left then stops. */
  private complete = false;
  private stopped = false;
  /** The lanes waiting for more parts, woken when parts are added or the queue stops. */
  private waiting: (() => void)[] = [];

  constructor(first: Iterator<NewLineContentPart>) {
    this.sources = [first];
  }

  /** The next part not taken yet; undefined when there is none to come, or the queue stopped. */
  async take(): Promise<NewLineContentPart | undefined> {
    for (;;) {
      if (this.stopped) return undefined;
      while (this.sources.length > 0) {
        const next = this.sources[0].next();
        if (!next.done) return next.value;
        this.sources.shift();
      }
      if (this.complete) return undefined;
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
  }

  /** Adds the content's last parts, to be taken after those before them. */
  addLast(parts: Iterator<NewLineContentPart>): void {
    this.sources.push(parts);
    this.complete = true;
    this.wake();
  }

  /** No lane takes another part: the ones taken already are written or rolled back. */
  stop(): void {
    this.stopped = true;
    this.wake();
  }

  private wake(): void {
    const waiting = this.waiting;
    this.waiting = [];
    for (const resolve of waiting) resolve();
  }
}
