/**
 * The decisions service's public entry point: everything other services and processes use of it.
 */
export { importDecisions } from './commands/importDecisions';
export { DECISIONS_QUEUE, decisionProcessor } from './decisionJobs';
export { decisionRoutes } from './decisionRoutes';
export { decisionSchema } from './store/decisionQueries';
