/**
 * The one start-up and shutdown of every long-running process: the launcher (`make
 * run`), the gateway alone, each service process of separate-process mode, and the
 * worker alone. In this order, the same for all:
 * 1. the configuration is read and validated once; every problem (with those of the
 *    command line) is printed at once and the process exits 2;
 * 2. one logger, and tracing when OTEL_* names an endpoint (shared/telemetry/), before
 *    any part starts, so that every server and client is made instrumented;
 * 3. SIGINT/SIGTERM handlers are installed before anything starts, so a signal during
 *    start-up (Neo4j or Redis not up yet) stops the process too; an error nobody
 *    caught is logged and exits 1;
 * 4. the parts start in the order given; a part that fails to start closes the ones
 *    started before it and the process exits 1;
 * 5. on a signal the started parts close in the order they started (the API stops
 *    taking requests before the worker stops), then the process exits 0, or 1 when a
 *    close failed. Further signals change nothing (each close is bounded). Tracing
 *    closes last, exporting the spans of the shutdown too.
 */
import { Config, ConfigError, loadConfig } from '../../shared/config/config';
import { createLogger, Logger } from '../../shared/logging/logger';
import { bestEffort } from '../../shared/async/promises';
import { startTelemetry, Telemetry, traceLogFields } from '../../shared/telemetry/telemetry';

export interface ProcessPart {
  close(): Promise<void>;
}

export interface ProcessDefinition {
  /** The `name` of every log line (default graph-design-service). */
  loggerName?: string;
  /** A service process of separate-process mode: INTERNAL_SECRET is required. */
  requireInternalSecret?: boolean;
  /** Problems with the command line, reported with the configuration's. */
  argumentProblems?: string[];
  /** Started in order, closed in the same order. */
  parts: ((config: Config, logger: Logger) => Promise<ProcessPart>)[];
}

/** Exit codes: 0 stopped cleanly, 1 failed (start-up, shutdown, uncaught), 2 bad configuration. */
const EXIT = { stopped: 0, failed: 1, badConfig: 2 } as const;

function configOrExit(definition: ProcessDefinition): Config {
  const problems = [...(definition.argumentProblems ?? [])];
  let config: Config | undefined;
  try {
    config = loadConfig(undefined, { requireInternalSecret: definition.requireInternalSecret });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    problems.push(...error.problems);
  }
  if (problems.length > 0 || !config) {
    process.stderr.write(`${new ConfigError(problems).message}\n`);
    process.exit(EXIT.badConfig);
  }
  return config;
}

async function closeInOrder(parts: readonly ProcessPart[]): Promise<void> {
  for (const part of parts) await part.close();
}

export function runProcess(definition: ProcessDefinition): void {
  const config = configOrExit(definition);
  const processName = definition.loggerName ?? 'graph-design-service';
  const logger = createLogger({
    level: config.logLevel,
    name: processName,
    ...(config.telemetry ? { mixin: traceLogFields } : {}),
  });
  let telemetry: Telemetry | undefined;
  const started: ProcessPart[] = [];
  let stopping = false;
  const exitAfterClosing = (code: number) =>
    closeInOrder([...started, ...(telemetry ? [telemetry] : [])]).then(
      () => process.exit(code),
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(EXIT.failed);
      },
    );
  const stop = (signal: NodeJS.Signals) => {
    // wrappers forward a Ctrl-C as SIGTERM too: a second signal changes nothing
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    void exitAfterClosing(EXIT.stopped);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  const crash = (error: unknown) => {
    logger.fatal({ err: error }, 'uncaught error');
    process.stderr.write(`uncaught error: ${error instanceof Error ? error.stack : error}\n`);
    process.exit(EXIT.failed);
  };
  process.on('uncaughtException', crash);
  process.on('unhandledRejection', crash);

  void (async () => {
    telemetry = await startTelemetry({
      settings: config.telemetry,
      processName,
      serviceVersion: config.serviceVersion,
      logger,
    });
    for (const start of definition.parts) {
      const part = await start(config, logger);
      // a signal came while this part was starting: the shutdown is closing the others
      if (stopping) return bestEffort(part.close(), 'the process is stopping anyway');
      started.push(part);
    }
  })().catch((error: unknown) => {
    if (stopping) return;
    stopping = true;
    logger.fatal({ err: error }, 'failed to start');
    process.stderr.write(`failed to start: ${error instanceof Error ? error.stack : error}\n`);
    void exitAfterClosing(error instanceof ConfigError ? EXIT.badConfig : EXIT.failed);
  });
}
