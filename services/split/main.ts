/**
 * Entry point of one service process of separate-process mode (`make run-split`
 * starts one of each beside the gateway and the worker):
 *   node dist/services/split/main.js <projects|branches|graph-read|graph-write|decisions>
 * It serves the operations whose x-service is that name, called by the gateway over
 * its internal HTTP API. Configuration from the environment as everywhere (PORT,
 * NEO4J_*, REDIS_URL, INTERNAL_SECRET required); start-up and shutdown as every
 * process (services/platform/runProcess.ts), draining calls in flight.
 */
import { SERVICE_NAMES, ServiceName } from '../../shared/config/serviceNames';
import { runProcess } from '../platform';
import { startOwnerService } from './startOwnerService';

const name = process.argv[2] ?? '';
const known = (SERVICE_NAMES as readonly string[]).includes(name);

runProcess({
  loggerName: `graph-design-${name}`,
  requireInternalSecret: true,
  argumentProblems: known
    ? []
    : [`service name must be one of ${SERVICE_NAMES.join(', ')}, got ${JSON.stringify(name)}`],
  parts: [(config, logger) => startOwnerService(config, name as ServiceName, logger)],
});
