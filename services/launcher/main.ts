/**
 * Entry point of `make run` (and `npm start`, and the container's default command):
 * the gateway (HTTP API) and the worker (queues `decisions` and `purge`, purge
 * sweep) in one process, from one config load. Start-up and shutdown as every
 * process (services/platform/runProcess.ts): SIGINT/SIGTERM stop the gateway first
 * (no new deletes), then the worker (running jobs finish or are left to rerun).
 * The two also run as processes of their own: services/gateway/main.ts and
 * services/worker/main.ts.
 */
import { startService } from '../gateway';
import { runProcess } from '../platform';
import { startWorker } from '../worker';

runProcess({
  parts: [
    startService,
    (config, logger) => startWorker(config, logger.child({ component: 'worker' })),
  ],
});
