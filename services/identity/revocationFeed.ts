/**
 * The key epoch known to each process without asking Redis on every request (that GET
 * was a Redis round trip of every request's fixed cost).
 *
 * A revocation bumps the epoch in Redis and publishes the new value in one script
 * (bumpAuthEpoch), then waits until every process has seen it (awaitEpochSeen): each
 * process's feed receives the published value on its subscription and acknowledges it.
 * Only then does the revoking command return, so a key the command has revoked is
 * refused by every process, as when each request read the epoch itself.
 *
 * What bounds a feed that missed a message (subscription down, a cluster node slow to
 * pass it on): every HEARTBEAT_MS the feed reads the epoch from Redis and records it with
 * its registration; a feed whose last such confirmation was sent more than
 * STALE_AFTER_MS ago answers nothing, and AuthCache then reads the epoch on each
 * request. A confirmation sent after a bump reads the bumped epoch and acknowledges it,
 * so a feed that has not acknowledged a bump stops answering at most STALE_AFTER_MS
 * after it: that is as long as awaitEpochSeen ever waits.
 */
import { randomUUID } from 'node:crypto';
import { Cluster } from 'ioredis';
import type { RedisClient } from '../../shared/redis/redisClient';
import { bestEffort } from '../../shared/async/promises';

export const AUTH_EPOCH_KEY = 'auth:epoch';
export const AUTH_EPOCH_CHANNEL = 'auth:epoch:bumped';
/**
 * The processes with a feed: a hash, field = feed id, value = "<epoch seen> <when its
 * last confirmation was sent, ms>". Each confirmation renews its expiry, so the key goes
 * once no process runs; a process that died without removing its field is removed by
 * the next revocation once its confirmation is FORGET_FEED_MS old.
 */
const FEEDS_KEY = 'auth:epoch:feeds';

const HEARTBEAT_MS = 250;
const STALE_AFTER_MS = 1000;
/** Registrations older than this are not waited for (clock skew between hosts included). */
const REGISTRATION_MS = 5000;
/** Registrations older than this are removed by the next revocation; the key's expiry. */
const FORGET_FEED_MS = 60_000;

export class RevocationFeed {
  readonly id = randomUUID();
  private readonly subscriber: RedisClient;
  private readonly now: () => number;
  private epoch: number | undefined;
  /** When the last confirmation that Redis has answered was sent. */
  private confirmedAt = -Infinity;
  /** When the confirmation last registered in FEEDS_KEY was sent (its acknowledgements keep it). */
  private registeredAt = -Infinity;
  private readonly timer: NodeJS.Timeout;
  private closed = false;

  constructor(
    private readonly options: {
      redis: RedisClient;
      heartbeatMs?: number;
      staleAfterMs?: number;
      now?: () => number;
    },
  ) {
    this.now = options.now ?? Date.now;
    // a connection of its own: a subscribed connection can run no other commands
    const { redis } = options;
    this.subscriber = redis instanceof Cluster ? redis.duplicate() : redis.duplicate();
    this.subscriber.on('error', () => undefined); // the main client logs Redis trouble
    this.subscriber.on('message', (channel: string, message: string) => {
      if (channel !== AUTH_EPOCH_CHANNEL || !this.advance(message)) return;
      if (this.registeredAt === -Infinity) return; // the first confirmation registers it
      void bestEffort(
        redis.hset(FEEDS_KEY, this.id, this.registration()),
        'the next heartbeat registers this process again',
      );
    });
    // (ioredis subscribes again by itself after a reconnection)
    this.subscriber.on('ready', () => {
      void bestEffort(
        this.subscriber.subscribe(AUTH_EPOCH_CHANNEL),
        'the heartbeat reads the epoch until a subscription holds',
      );
    });
    void bestEffort(
      this.subscriber.connect(),
      'ioredis reconnects by itself; the heartbeat reads the epoch meanwhile',
    );
    this.timer = setInterval(() => void this.confirm(), options.heartbeatMs ?? HEARTBEAT_MS);
    this.timer.unref();
    void this.confirm();
  }

  /** The current epoch, or undefined while it is not confirmed recently enough. */
  current(): string | undefined {
    if (this.epoch === undefined) return undefined;
    if (this.now() - this.confirmedAt > (this.options.staleAfterMs ?? STALE_AFTER_MS))
      return undefined;
    return String(this.epoch);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    this.epoch = undefined;
    this.subscriber.disconnect();
    const { redis } = this.options;
    await bestEffort(
      redis.hdel(FEEDS_KEY, this.id),
      'a registration left behind is dropped once its heartbeat is stale',
    );
  }

  /** Reads the epoch, and registers this feed with it as alive at the time of the read. */
  private async confirm(): Promise<void> {
    const { redis } = this.options;
    const sent = this.now();
    try {
      this.advance((await redis.get(AUTH_EPOCH_KEY)) ?? '0');
      if (this.closed) return;
      this.registeredAt = Math.max(this.registeredAt, sent);
      await Promise.all([
        redis.hset(FEEDS_KEY, this.id, this.registration()),
        redis.pexpire(FEEDS_KEY, FORGET_FEED_MS),
      ]);
      if (!this.closed) this.confirmedAt = Math.max(this.confirmedAt, sent);
    } catch {
      // unconfirmed: current() stops answering once the last confirmation is stale
    }
  }

  /** This feed's value in FEEDS_KEY. */
  private registration(): string {
    return `${this.epoch ?? 0} ${this.registeredAt}`;
  }

  /** Takes a newer epoch; true when it moved. */
  private advance(value: string): boolean {
    const epoch = Number(value);
    if (!Number.isSafeInteger(epoch) || (this.epoch !== undefined && epoch <= this.epoch))
      return false;
    this.epoch = epoch;
    return true;
  }
}

/** INCR the epoch and publish the new value, in one step: no bump goes unpublished. */
const BUMP = `
local epoch = redis.call('INCR', KEYS[1])
redis.call('PUBLISH', ARGV[1], epoch)
return epoch`;

/** Invalidates every process's cached keys (after a revocation has committed); the new epoch. */
export async function bumpAuthEpoch(redis: RedisClient): Promise<number> {
  return Number(await redis.eval(BUMP, 1, AUTH_EPOCH_KEY, AUTH_EPOCH_CHANNEL));
}

/**
 * Waits until every registered feed has seen `epoch`, or until STALE_AFTER_MS have passed,
 * after which a feed that has not seen it no longer answers (see RevocationFeed).
 */
export async function awaitEpochSeen(redis: RedisClient, epoch: number): Promise<void> {
  const deadline = Date.now() + STALE_AFTER_MS + 50;
  for (let first = true; Date.now() < deadline; first = false) {
    const feeds = Object.entries(await redis.hgetall(FEEDS_KEY)).map(([id, value]) => {
      const [seen, confirmedAt] = value.split(' ').map(Number);
      return { id, seen, confirmedAt };
    });
    if (first) {
      const gone = feeds.filter((f) => !(f.confirmedAt >= Date.now() - FORGET_FEED_MS));
      if (gone.length > 0) await redis.hdel(FEEDS_KEY, ...gone.map((f) => f.id));
    }
    const live = feeds.filter((f) => f.confirmedAt >= Date.now() - REGISTRATION_MS);
    if (live.every((f) => f.seen >= epoch)) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
