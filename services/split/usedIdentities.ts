/**
 * The nonces of the signed identities a service has accepted (identityToken.ts), each
 * remembered until its token expires, so a token is good for one call. They are kept
 * in Redis, not in the process: a service may run as several processes (SERVICE_URLS
 * lists them, the gateway calls them in turn), and a token accepted by one must be
 * refused by the others. SET NX claims a nonce atomically: of two calls with the same
 * token, exactly one gets it.
 */
import type { RedisClient } from '../../shared/redis/redisClient';

export interface UsedIdentities {
  /** True the first time `nonce` is claimed before `expiresAt` (ms), false after. */
  claim(nonce: string, expiresAt: number): Promise<boolean>;
}

/** Kept a little past the expiry, so that no clock difference frees a nonce early. */
const MARGIN_MS = 5_000;

export class RedisUsedIdentities implements UsedIdentities {
  constructor(private readonly redis: RedisClient) {}

  async claim(nonce: string, expiresAt: number, now = Date.now()): Promise<boolean> {
    const ttl = Math.max(expiresAt - now, 0) + MARGIN_MS;
    const set = await this.redis.set(`identity-nonce:${nonce}`, '1', 'PX', ttl, 'NX');
    return set === 'OK';
  }
}
