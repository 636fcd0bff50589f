/**
 * The worker service's public entry point: everything other services and processes use of it.
 */
export { startWorker } from './startWorker';
export type { RunningWorker } from './startWorker';
