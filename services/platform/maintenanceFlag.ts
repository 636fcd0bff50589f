/**
 * The maintenance flag: one Redis key that an operator (scripts/neo4j-backup.sh, during a
 * backup or a restore of Neo4j) sets while the store must not change. While it is set,
 * the gateway refuses every request that could write (any method but GET and HEAD) with
 * 503 and `Retry-After`, before it reads the request's body: a write accepted while the
 * store is being replaced would be answered as done and then lost with the store it went
 * to. Reads go on for as long as Neo4j answers them.
 *
 * Shared by every gateway process through Redis. Each process reads the key at most once
 * per READ_EVERY_MS (a request in between uses the value last read), so the operator waits
 * a little longer than that after setting it before stopping Neo4j. When Redis does not
 * answer, the value last read stands: an outage of Redis alone never makes the service
 * read-only, nor lifts a flag it has seen.
 */
import { MaintenanceError } from '../../shared/errors/domainErrors';
import type { RedisClient } from '../../shared/redis/redisClient';
import { withinMs } from '../../shared/redis/queueConnection';

/** The key; its value is the reason shown to callers (`backup`, `restore`). */
export const MAINTENANCE_KEY = 'gds:maintenance';

/** How stale a process's view of the flag may be. */
export const MAINTENANCE_READ_EVERY_MS = 1000;

/** What a refused caller is told to wait before trying again. */
const RETRY_AFTER_SECONDS = 30;

export class MaintenanceFlag {
  private reason: string | null = null;
  private readAt = 0;
  private reading: Promise<void> | undefined;

  constructor(private readonly options: { redis: RedisClient }) {}

  /** The reason the flag is set for, or null, as of a read at most READ_EVERY_MS old. */
  async current(): Promise<string | null> {
    if (Date.now() - this.readAt >= MAINTENANCE_READ_EVERY_MS) {
      this.reading ??= this.read().finally(() => {
        this.reading = undefined;
      });
      await this.reading;
    }
    return this.reason;
  }

  /**
   * Throws MaintenanceError while the flag is set: asked by the gateway for a request
   * that could write (the gateway's rate-limit bucket says which, RateLimits.bucketFor).
   */
  async admitWrite(): Promise<void> {
    const reason = await this.current();
    if (reason !== null) throw new MaintenanceError(reason, RETRY_AFTER_SECONDS);
  }

  private async read(): Promise<void> {
    try {
      this.reason = await withinMs(500, this.options.redis.get(MAINTENANCE_KEY), 'maintenance');
    } catch {
      // Redis did not answer: the value last read stands (see the file comment)
    }
    this.readAt = Date.now();
  }
}
