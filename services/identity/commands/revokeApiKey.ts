/**
 * graphctl keys revoke: a revoked key answers the same 401 as an unknown key, so a caller cannot
 * probe which keys exist. After the revocation commits, the key epoch in Redis is bumped so that no
 * process keeps serving the key from its authentication cache (services/identity/authCache), and
 * the command returns once every process has seen the bump (RevocationFeed). Revoking again is
 * harmless and bumps the epoch again.
 */
import type { RedisClient } from '../../../shared/redis/redisClient';
import { NotFoundError, ServiceUnavailableError } from '../../../shared/errors/domainErrors';
import { nowTimestamp } from '../../../shared/http/timestamps';
import type { Executor } from '../../../shared/neo4j/executor';
import { awaitEpochSeen, bumpAuthEpoch } from '../revocationFeed';
import { revokeApiKey as revokeApiKeyQuery } from '../store/identityQueries';

export async function revokeApiKey(
  deps: { executor: Executor; redis: RedisClient },
  keyId: string,
) {
  const [row] = await deps.executor.write<{ id: string; userId: string }>(revokeApiKeyQuery, {
    keyId,
    now: nowTimestamp(),
  });
  if (!row) throw new NotFoundError('key');
  try {
    await awaitEpochSeen(deps.redis, await bumpAuthEpoch(deps.redis));
  } catch (error) {
    throw new ServiceUnavailableError(
      `the key is revoked, but Redis could not be told (${(error as Error).message}): ` +
        'running services may accept it until their authentication cache expires ' +
        '(AUTH_CACHE_TTL_S); run the command again once Redis answers',
    );
  }
  return { key_id: row.id, user_id: row.userId, revoked: true };
}
