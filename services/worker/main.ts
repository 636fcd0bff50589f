/**
 * Entry point of the background worker alone (`node dist/services/worker/main.js`,
 * the worker container of a deployment and of `make run-split`): queues `decisions`
 * and `purge` and the purge sweep. `make run` runs it beside the gateway in one
 * process (services/launcher/main.ts). Start-up and shutdown as every process
 * (services/platform/runProcess.ts): on SIGINT/SIGTERM running jobs finish or are
 * left to rerun, then the Neo4j driver closes.
 */
import { runProcess } from '../platform';
import { startWorker } from './startWorker';

runProcess({ loggerName: 'graph-design-worker', parts: [startWorker] });
