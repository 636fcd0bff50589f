/**
 * Entry point of one service process in separate-process mode:
 *   node dist/services/split/main.js <projects|branches|graph-read|graph-write|decisions>
 * Configuration from the environment as everywhere (PORT, NEO4J_*, REDIS_URL,
 * INTERNAL_SECRET); stops cleanly on SIGINT/SIGTERM, draining calls in flight.
 */
import { Config, ConfigError, loadConfig } from '../../shared/config/config';
import { createLogger } from '../../shared/logging/logger';
import { isServiceName, SERVICE_NAMES } from './operationOwners';
import { startOwnerService } from './startOwnerService';

async function main(): Promise<void> {
  const name = process.argv[2] ?? '';
  // every problem at once: the service name and the whole configuration
  const problems = isServiceName(name)
    ? []
    : [`service name must be one of ${SERVICE_NAMES.join(', ')}, got ${JSON.stringify(name)}`];
  let config: Config | undefined;
  try {
    config = loadConfig(undefined, { requireInternalSecret: true });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    problems.push(...error.problems);
  }
  if (problems.length > 0 || !config || !isServiceName(name)) {
    process.stderr.write(`${new ConfigError(problems).message}\n`);
    process.exit(2);
  }
  const logger = createLogger({ level: config.logLevel, name: `graph-design-${name}` });
  const service = await startOwnerService(config, name, logger);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'service process shutting down');
    service.close().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(2);
  }
  process.stderr.write(
    `failed to start: ${error instanceof Error ? error.stack : String(error)}\n`,
  );
  process.exit(1);
});
