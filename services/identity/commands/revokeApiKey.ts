/** graphctl keys revoke: a revoked key answers the same 401 as an unknown one (§5.5). */
import { NotFoundError } from '../../../shared/errors/domainErrors';
import { nowTimestamp } from '../../../shared/http/timestamps';
import type { Executor } from '../../../shared/neo4j/executor';
import { revokeApiKey as revokeApiKeyQuery } from '../store/identityQueries';

export async function revokeApiKey(executor: Executor, keyId: string) {
  const [row] = await executor.write<{ id: string; userId: string }>(revokeApiKeyQuery, {
    keyId,
    now: nowTimestamp(),
  });
  if (!row) throw new NotFoundError('key');
  return { key_id: row.id, user_id: row.userId, revoked: true };
}
