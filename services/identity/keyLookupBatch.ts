/**
 * Lookups of API keys by hash gathered into one statement (findActiveKeysByHashes): at
 * most one statement in flight per process, started at least `intervalMs` after the one
 * before; the hashes asked for meanwhile wait for the next one (up to `maxHashes` per
 * statement, the rest for the one after). The path of callers whose address has spent
 * its budget of unknown-key lookups: a flood of random keys then costs Neo4j a few
 * statements a second whatever its size, and a valid key among them is still found,
 * a little later, never refused. How many wait is bounded by the requests the server
 * holds open.
 */
import type { Executor } from '../../shared/neo4j/executor';
import { findActiveKeysByHashes } from './store/identityQueries';

export interface KeyRow extends Record<string, unknown> {
  keyId: string;
  userId: string;
  scopes: string[];
  projects: string[] | null;
}

interface Waiter {
  resolve(row: KeyRow | undefined): void;
  reject(error: unknown): void;
}

export class KeyLookupBatch {
  /** Hashes asked for and not yet in a statement, with who waits for each. */
  private readonly pending = new Map<string, Waiter[]>();
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private lastStartedAt = 0;

  constructor(
    private readonly options: { executor: Executor; intervalMs?: number; maxHashes?: number },
  ) {}

  /** The active key of `hash`, or undefined when there is none. */
  lookup(hash: string): Promise<KeyRow | undefined> {
    return new Promise((resolve, reject) => {
      const waiters = this.pending.get(hash);
      if (waiters) waiters.push({ resolve, reject });
      else this.pending.set(hash, [{ resolve, reject }]);
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.running || this.timer || this.pending.size === 0) return;
    const interval = this.options.intervalMs ?? 100;
    const wait = Math.max(0, this.lastStartedAt + interval - Date.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.run();
    }, wait);
  }

  private async run(): Promise<void> {
    this.running = true;
    this.lastStartedAt = Date.now();
    const batch = [...this.pending].slice(0, this.options.maxHashes ?? 500);
    for (const [hash] of batch) this.pending.delete(hash);
    try {
      const rows = await this.options.executor.read<KeyRow & { hash: string }>(
        findActiveKeysByHashes,
        { hashes: batch.map(([hash]) => hash) },
      );
      const found = new Map(rows.map(({ hash, ...row }) => [hash, row as KeyRow]));
      for (const [hash, waiters] of batch) for (const w of waiters) w.resolve(found.get(hash));
    } catch (error) {
      for (const [, waiters] of batch) for (const w of waiters) w.reject(error);
    } finally {
      this.running = false;
      this.schedule();
    }
  }
}
