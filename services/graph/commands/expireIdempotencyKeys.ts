/**
 * Part of the worker's periodic sweep: the Idempotency-Key recorded with a batch in
 * Neo4j is kept as long as the answer cached in Redis (IDEMPOTENCY_TTL_S) and then
 * forgotten, so the stored keys do not grow without end. Lookups already ignore
 * older keys; this clears them, in bounded rounds.
 */
import type { Executor } from '../../../shared/neo4j/executor';
import { expireIdempotencyKeys as expireQuery } from '../store/trailQueries';

/** Keys cleared per write transaction. */
const ROUND = 1000;
/** Rounds per sweep; the rest waits for the next sweep. */
const MAX_ROUNDS = 20;

export async function expireIdempotencyKeys(
  executor: Executor,
  options: { ttlSeconds: number; now?: number },
): Promise<number> {
  const before = new Date((options.now ?? Date.now()) - options.ttlSeconds * 1000).toISOString();
  let total = 0;
  for (let round = 0; round < MAX_ROUNDS; round += 1) {
    const [row] = await executor.write<{ expired: number }>(expireQuery, { before, limit: ROUND });
    const expired = row?.expired ?? 0;
    total += expired;
    if (expired < ROUND) break;
  }
  return total;
}
