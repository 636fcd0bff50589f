/**
 * The feed's part of the purge of a deleted project (services/purge calls it, for a
 * project it has found deleted, before it removes the project node): the project's
 * FeedHead, then every FeedEvent, in batches. The head goes first: an append still in
 * flight holds its lock (recordEvent), so its event has committed before the head is
 * deleted and the events' delete then finds it. Idempotent: a rerun finds nothing.
 */
import { countDeleted } from '../../../shared/neo4j/batchedDelete';
import type { Executor } from '../../../shared/neo4j/executor';
import { purgeFeedEvents, purgeFeedHead } from '../store/feedQueries';

export interface FeedPurgeCounts {
  feedEvents: number;
  feedHeads: number;
}

export async function purgeProjectFeed(
  executor: Executor,
  projectId: string,
): Promise<FeedPurgeCounts> {
  const feedHeads = await countDeleted(executor, purgeFeedHead, { projectId });
  const feedEvents = await countDeleted(executor, purgeFeedEvents, { projectId });
  return { feedEvents, feedHeads };
}
