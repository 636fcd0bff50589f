/**
 * Entry point of the background worker alone (`npx tsx services/worker/main.ts`):
 * load config once, start, stop cleanly on SIGINT/SIGTERM (running jobs finish
 * or are left to rerun; Neo4j driver closed). services/launcher/main.ts runs it
 * beside the gateway in one process for `make run`.
 */
import { ConfigError, loadConfig } from '../../shared/config/config';
import { createLogger } from '../../shared/logging/logger';
import { RunningWorker, startWorker } from './startWorker';

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
  const logger = createLogger({ level: config.logLevel, name: 'graph-design-worker' });
  // Handlers first: a signal during start-up (e.g. Redis not up yet) still stops.
  let worker: RunningWorker | undefined;
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'worker shutting down');
    (worker ? worker.close() : Promise.resolve()).then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'worker shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  const started = await startWorker(config, logger);
  if (stopping) await started.close();
  else worker = started;
}

main().catch((error: unknown) => {
  process.stderr.write(
    `worker failed to start: ${error instanceof Error ? error.stack : String(error)}\n`,
  );
  process.exit(1);
});
