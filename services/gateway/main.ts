/**
 * Entry point of the gateway alone (`node dist/services/gateway/main.js`): the HTTP
 * API without the background worker, as the API container of a deployment runs it
 * and as `make run-split` runs it with SERVICE_URLS naming the service processes.
 * `make run` runs services/launcher/main.ts instead (gateway and worker in one
 * process). Start-up and shutdown as every process (services/platform/runProcess.ts).
 */
import { runProcess } from '../platform';
import { startService } from './server';

runProcess({ parts: [startService] });
