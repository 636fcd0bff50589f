/**
 * The purge service: removes the content of deleted projects and discarded branches
 * in the background, in small batches.
 *
 * - PurgeQueue: what project deletion and branch discard hand their targets to;
 * - jobs: PURGE_QUEUE, purgeProcessor, sweepPurges (the worker's periodic sweep);
 * - schema: purgeSchema (indexes, run at start-up).
 */
export { sweepPurges } from './commands/sweepPurges';
export type { SweepResult } from './commands/sweepPurges';
export { purgeProcessor } from './purgeJobs';
export { PURGE_QUEUE, PurgeQueue } from './purgeQueue';
export { purgeSchema } from './store/purgeQueries';
