/**
 * The feed's part of the purge of a deleted project (services/purge calls it, for a
 * project it has found deleted, before it removes the project node): the project's
 * FeedHead, then every FeedEvent, published and pending, in batches. The head goes
 * first: a publish still in flight holds its lock, so it has committed before the head
 * is deleted and the events' deletes then find what it published. Idempotent: a rerun
 * finds nothing.
 */
import { countDeleted } from '../../../shared/neo4j/batchedDelete';
import type { Executor } from '../../../shared/neo4j/executor';
import { purgeFeedEvents, purgeFeedHead, purgeFeedPending } from '../store/feedQueries';

export interface FeedPurgeCounts {
  feedEvents: number;
  feedHeads: number;
}

export async function purgeProjectFeed(
  executor: Executor,
  projectId: string,
): Promise<FeedPurgeCounts> {
  const feedHeads = await countDeleted(executor, purgeFeedHead, { projectId });
  const feedEvents =
    (await countDeleted(executor, purgeFeedEvents, { projectId })) +
    (await countDeleted(executor, purgeFeedPending, { projectId }));
  return { feedEvents, feedHeads };
}
