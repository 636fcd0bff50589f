/**
 * Entry point for `make run` with background jobs: the gateway (HTTP API) and the
 * worker (queues `decisions` and `purge`, purge sweep) in one process, from one
 * config load. SIGINT/SIGTERM stop the gateway first (no new deletes), then the
 * worker (running jobs finish or are left to rerun), then exit.
 * The two can also run as separate processes: services/gateway/main.ts and
 * services/worker/main.ts.
 */
import { ConfigError, loadConfig } from '../../shared/config/config';
import { createLogger } from '../../shared/logging/logger';
import { startService } from '../gateway';
import { startWorker } from '../worker';

interface Closable {
  close(): Promise<void>;
}

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  const logger = createLogger({ level: config.logLevel });
  // Handlers first: a signal during start-up stops what has started, then exits.
  const started: Closable[] = [];
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    started
      .reduce((done, part) => done.then(() => part.close()), Promise.resolve())
      .then(
        () => process.exit(0),
        (error: unknown) => {
          logger.error({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  started.push(await startService(config, logger));
  if (stopping) return;
  started.push(await startWorker(config, logger.child({ component: 'worker' })));
}

main().catch((error: unknown) => {
  process.stderr.write(
    `failed to start: ${error instanceof Error ? error.stack : String(error)}\n`,
  );
  process.exit(1);
});
