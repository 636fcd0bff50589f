/**
 * Idempotency-Key for delta apply, kept in Redis per (user, branch, key). The key is reserved
 * atomically (SET NX) before applying, so of concurrent retries exactly one applies; the others get
 * 409 idempotency_key_in_progress, and later repeats get the first answer replayed. The reservation
 * expires quickly (a crash cannot wedge a key), and the key is also stored with the batch in Neo4j,
 * so a retry after a crash between commit and caching is answered from the recorded batch instead
 * of applying again.
 *
 * Bounds: an answer is kept whole only up to MAX_STORED_ANSWER_BYTES. A larger one
 * (an error that echoes a large input) is kept as its fingerprint alone and derived
 * again by running the request again: a request that failed wrote nothing, and a
 * batch that was applied is answered from its record in Neo4j, so the rerun never
 * applies twice. Whoever holds a reservation releases only its own (compare-and-
 * delete), and an existing entry is read only for a caller that could apply the
 * batch itself (`authorize`), so a key of the same user without graph:write or
 * outside the key's project allowlist never sees an answer kept for another key.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { RedisClient } from '../../shared/redis/redisClient';
import {
  ConflictError,
  InvalidInputError,
  ServiceUnavailableError,
} from '../../shared/errors/domainErrors';
import { bestEffort } from '../../shared/async/promises';

export interface StoredResponse {
  status: number;
  body: unknown;
}

interface Entry {
  state: 'in_flight' | 'done';
  fingerprint: string;
  /** Which reservation wrote an in-flight entry (compare-and-delete on release). */
  token?: string;
  response?: StoredResponse;
  /** The answer was too large to keep: a repeat runs the request again. */
  rederive?: boolean;
}

/** The largest answer kept whole, serialized; larger ones are derived again. */
export const MAX_STORED_ANSWER_BYTES = 16 * 1024;

export type Reservation =
  { kind: 'proceed'; token: string } | { kind: 'replay'; response: StoredResponse };

const PRINTABLE = /^[\x20-\x7e]{1,255}$/;

export function isValidIdempotencyKey(key: string): boolean {
  return PRINTABLE.test(key);
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) =>
      a < b ? -1 : a > b ? 1 : 0,
    );
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export function fingerprint(body: unknown): string {
  return createHash('sha256')
    .update(canonical(body ?? null))
    .digest('hex');
}

/** Deletes KEYS[1] only while it still holds ARGV[1]. */
const COMPARE_AND_DELETE = `if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1]) else return 0 end`;

/** Replaces KEYS[1] by ARGV[2] (expiring in ARGV[3] s) only while it still holds ARGV[1]. */
const COMPARE_AND_SET = `if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('SET', KEYS[1], ARGV[2], 'EX', ARGV[3]) else return false end`;

export class IdempotencyStore {
  private readonly redis: RedisClient;
  private readonly ttlSeconds: number;
  private readonly inFlightSeconds: number;

  constructor(options: { redis: RedisClient; ttlSeconds: number; inFlightSeconds?: number }) {
    this.redis = options.redis;
    this.ttlSeconds = options.ttlSeconds;
    this.inFlightSeconds = options.inFlightSeconds ?? 60;
  }

  private keyOf(scope: string, key: string): string {
    return `idem:${scope}:${createHash('sha256').update(key).digest('hex')}`;
  }

  private async call<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch {
      throw new ServiceUnavailableError('idempotency keys are unavailable (Redis), retry later');
    }
  }

  /**
   * Reserves the key, or answers from what it holds. `authorize` runs before an
   * existing entry is looked at and throws when the caller could not apply the batch.
   */
  async reserve(
    scope: string,
    key: string,
    print: string,
    authorize: () => Promise<void> = async () => undefined,
  ): Promise<Reservation> {
    const redisKey = this.keyOf(scope, key);
    const token = randomUUID();
    const mine = JSON.stringify({ state: 'in_flight', fingerprint: print, token } satisfies Entry);
    const set = await this.call(() =>
      this.redis.set(redisKey, mine, 'EX', this.inFlightSeconds, 'NX'),
    );
    if (set === 'OK') return { kind: 'proceed', token };
    await authorize();
    const raw = await this.call(() => this.redis.get(redisKey));
    if (raw === null) return this.reserve(scope, key, print, authorize); // expired in between
    const existing = JSON.parse(raw) as Entry;
    if (existing.fingerprint !== print) {
      throw new InvalidInputError(
        'idempotency_key_reused',
        'this Idempotency-Key was used with a different body',
      );
    }
    if (existing.state === 'done' && existing.rederive) {
      const taken = await this.call(() =>
        this.redis.eval(COMPARE_AND_SET, 1, redisKey, raw, mine, this.inFlightSeconds),
      );
      if (taken === 'OK') return { kind: 'proceed', token };
    }
    if (existing.state === 'in_flight' || !existing.response) {
      throw new ConflictError(
        'idempotency_key_in_progress',
        'a request with this Idempotency-Key is still running',
      );
    }
    return { kind: 'replay', response: existing.response };
  }

  async complete(
    scope: string,
    key: string,
    print: string,
    response: StoredResponse,
  ): Promise<void> {
    let text = JSON.stringify({ state: 'done', fingerprint: print, response } satisfies Entry);
    if (Buffer.byteLength(text) > MAX_STORED_ANSWER_BYTES) {
      text = JSON.stringify({ state: 'done', fingerprint: print, rederive: true } satisfies Entry);
    }
    await this.call(() => this.redis.set(this.keyOf(scope, key), text, 'EX', this.ttlSeconds));
  }

  /** Gives up the reservation `token` took; a newer one under the same key is left alone. */
  async release(scope: string, key: string, token: string, print: string): Promise<void> {
    const mine = JSON.stringify({ state: 'in_flight', fingerprint: print, token } satisfies Entry);
    await bestEffort(
      this.redis.eval(COMPARE_AND_DELETE, 1, this.keyOf(scope, key), mine),
      'a reservation not given up expires with its in-flight TTL',
    );
  }
}
