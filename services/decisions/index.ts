/**
 * The decisions service: a project's design decisions, ingested in the background
 * and read over HTTP.
 *
 * - routes: decisionRoutes (list, get);
 * - jobs: DECISIONS_QUEUE and decisionProcessor (the worker's ingestion);
 * - commands: importDecisions (`graphctl decisions import`, fuzz seed data);
 * - schema: decisionSchema (constraints and indexes, run at start-up).
 */
export { importDecisions } from './commands/importDecisions';
export { DECISIONS_QUEUE, decisionProcessor } from './decisionJobs';
export { decisionRoutes } from './decisionRoutes';
export { decisionSchema } from './store/decisionQueries';
