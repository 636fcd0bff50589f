/**
 * The purge service's public entry point: everything other services and processes use of it.
 */
export { sweepPurges } from './commands/sweepPurges';
export type { SweepResult } from './commands/sweepPurges';
export { purgeProcessor } from './purgeJobs';
export { PURGE_QUEUE, PurgeQueue } from './purgeQueue';
export { purgeSchema } from './store/purgeQueries';
