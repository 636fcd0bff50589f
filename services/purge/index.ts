/**
 * The purge service: removes the content of deleted projects and discarded branches,
 * and the history no readable version sees any more, in the background, in small
 * batches. A deleted project's records that other services own are removed by those
 * services' purge functions, which the project purge calls through their index.ts
 * (feed: purgeProjectFeed; reviews: purgeProjectReviews; webhooks: purgeProjectWebhooks).
 *
 * - PurgeQueue: what project deletion and branch discard hand their targets to;
 * - jobs: PURGE_QUEUE, purgeProcessor, sweepPurges (the worker's periodic sweep),
 *   sweepHistory (history retention, run with it), sweepStages (abandoned staging),
 *   deleteStageRecord (a stage's record, once published or given up);
 * - purgeLine: removes every record of a line (a refused staged import's), its touches
 *   included;
 * - schema: purgeSchema (indexes, run at start-up).
 */
export { sweepHistory } from './commands/sweepHistory';
export type { HistoryResult } from './commands/sweepHistory';
export { sweepPurges } from './commands/sweepPurges';
export { deleteStageRecord, sweepStages } from './commands/sweepStages';
export { purgeLine } from './commands/purgeBranch';
export type { ContentCounts } from './commands/purgeBranch';
export type { SweepResult } from './commands/sweepPurges';
export { purgeProcessor } from './purgeJobs';
export { PURGE_QUEUE, PurgeQueue } from './purgeQueue';
export { purgeSchema } from './store/purgeQueries';
