/**
 * The feed service: every project's ordered feed of what happened in it.
 *
 * - writing: recordEvent, the one way an event is written, called by the service that
 *   makes the change in the same transaction (branches: forked; graph: batch applied;
 *   merge: merged; reviews: change request opened, reviewed, merged, closed), and
 *   recordRebased, the hook a rebase calls;
 * - publishing: publishPending gives committed events their seqs (every reader runs it
 *   first: readers of the feed here, and the webhooks' dispatch);
 * - reading: feedRoutes (listProjectEvents, streamProjectEvents), eventsAfter (the
 *   index read the webhooks and the MCP resource use), presentEvent;
 * - purge: purgeProjectFeed, the feed's part of a deleted project's purge (services/purge);
 * - schema: feedSchema.
 */
export { eventsAfter, readFeed } from './commands/readFeed';
export { publishPending } from './commands/publishPending';
export type { FeedPage } from './commands/readFeed';
export { branchAudience, recordEvent, recordRebased } from './feedEvent';
export type { FeedEventInput, FeedEventKind, FeedEventRecord, Verdict } from './feedEvent';
export { presentEvent } from './feedPresenter';
export { purgeProjectFeed } from './commands/purgeProjectFeed';
export type { FeedPurgeCounts } from './commands/purgeProjectFeed';
export { feedRoutes } from './feedRoutes';
export { feedSchema } from './store/feedQueries';
