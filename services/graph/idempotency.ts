/**
 * Idempotency-Key for delta apply (§4.15, interpretations "Idempotency-Key"),
 * kept in Redis per (user, branch, key). The key is reserved atomically (SET NX)
 * before applying, so of concurrent retries exactly one applies; the others get
 * 409 idempotency_key_in_progress, and later repeats get the first answer
 * replayed. The reservation expires quickly (a crash cannot wedge a key), and the
 * key is also stored with the batch in Neo4j, so a retry after a crash between
 * commit and caching is answered from the recorded batch instead of applying again.
 */
import { createHash } from 'node:crypto';
import type { RedisClient } from '../../shared/redis/redisClient';
import {
  ConflictError,
  InvalidInputError,
  ServiceUnavailableError,
} from '../../shared/errors/domainErrors';

export interface StoredResponse {
  status: number;
  body: unknown;
}

interface Entry {
  state: 'in_flight' | 'done';
  fingerprint: string;
  response?: StoredResponse;
}

export type Reservation = { kind: 'proceed' } | { kind: 'replay'; response: StoredResponse };

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

  async reserve(scope: string, key: string, print: string): Promise<Reservation> {
    const redisKey = this.keyOf(scope, key);
    const entry: Entry = { state: 'in_flight', fingerprint: print };
    const set = await this.call(() =>
      this.redis.set(redisKey, JSON.stringify(entry), 'EX', this.inFlightSeconds, 'NX'),
    );
    if (set === 'OK') return { kind: 'proceed' };
    const raw = await this.call(() => this.redis.get(redisKey));
    if (raw === null) return this.reserve(scope, key, print); // expired in between
    const existing = JSON.parse(raw) as Entry;
    if (existing.fingerprint !== print) {
      throw new InvalidInputError(
        'idempotency_key_reused',
        'this Idempotency-Key was used with a different body',
      );
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
    const entry: Entry = { state: 'done', fingerprint: print, response };
    await this.call(() =>
      this.redis.set(this.keyOf(scope, key), JSON.stringify(entry), 'EX', this.ttlSeconds),
    );
  }

  async release(scope: string, key: string): Promise<void> {
    await this.redis.del(this.keyOf(scope, key)).catch(() => undefined);
  }
}
