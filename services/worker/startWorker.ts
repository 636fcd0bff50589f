/**
 * The background worker: BullMQ Workers for the queues
 * `decisions` (ingestion) and `purge`, plus the periodic purge sweep. Used by main.ts, the launcher
 * that runs it beside the gateway, and the tests (in-process), so all run the same wiring.
 */
import { Worker } from 'bullmq';
import type { Config } from '../../shared/config/config';
import type { Logger } from '../../shared/logging/logger';
import { Executor } from '../../shared/neo4j/executor';
import {
  queuePrefix,
  releaseConnection,
  withinMs,
  workerConnection,
} from '../../shared/redis/queueConnection';
import { decisionProcessor, DECISIONS_QUEUE } from '../decisions';
import { ensureSchema } from '../gateway';
import { expireIdempotencyKeys } from '../graph';
import { PURGE_QUEUE, purgeProcessor, PurgeQueue, sweepPurges, SweepResult } from '../purge';

export interface WorkerQueues {
  /** Queue names (tests use fresh ones); default `decisions` and `purge`. */
  decisions?: string;
  purge?: string;
}

export interface RunningWorker {
  executor: Executor;
  purgeQueue: PurgeQueue;
  workers: Worker[];
  /** Runs one sweep now (the timer runs one every PURGE_SWEEP_INTERVAL_S). */
  sweep(): Promise<SweepResult>;
  close(): Promise<void>;
}

/** How long close() lets running jobs finish before it stops them (they rerun later). */
const GRACEFUL_CLOSE_MS = 10_000;

function watch(worker: Worker, logger: Logger): Worker {
  let lastError = '';
  worker.on('error', (error: Error) => {
    if (error.message !== lastError)
      logger.error({ queue: worker.name, err: error.message }, 'worker error');
    lastError = error.message;
  });
  worker.on('failed', (job, error) => {
    const final =
      !job || job.attemptsMade >= (job.opts.attempts ?? 1) || error.name === 'UnrecoverableError';
    logger.warn(
      {
        queue: worker.name,
        jobId: job?.id,
        attemptsMade: job?.attemptsMade,
        final,
        reason: error.message,
      },
      final ? 'job failed and is kept failed' : 'job failed; it will be retried',
    );
  });
  return worker;
}

/** Lets running jobs finish, then forces; bounded, so an outage never holds a shutdown. */
async function closeWorker(worker: Worker): Promise<void> {
  try {
    await withinMs(GRACEFUL_CLOSE_MS, worker.close(), `closing worker ${worker.name}`);
  } catch {
    await withinMs(2000, worker.close(true), `forcing worker ${worker.name}`).catch(
      () => undefined,
    );
  }
}

export async function startWorker(
  config: Config,
  logger: Logger,
  queues: WorkerQueues = {},
): Promise<RunningWorker> {
  const executor = new Executor({ ...config.neo4j, logger });
  await executor.verifyConnectivity();
  await ensureSchema(executor);

  const connection = workerConnection(config);
  const prefix = queuePrefix(config);
  const purgeQueue = new PurgeQueue({ config, logger, queueName: queues.purge });
  const workers = [
    new Worker(queues.decisions ?? DECISIONS_QUEUE, decisionProcessor(executor, logger), {
      connection,
      prefix,
      concurrency: 4,
      removeOnComplete: { count: 1000 },
      removeOnFail: { count: 10_000 },
    }),
    new Worker(queues.purge ?? PURGE_QUEUE, purgeProcessor(executor, logger), {
      connection,
      prefix,
      concurrency: 2,
      removeOnComplete: { count: 100 },
      removeOnFail: { count: 1000 },
    }),
  ].map((worker) => watch(worker, logger));

  let sweeping: Promise<SweepResult> | undefined;
  const sweep = (): Promise<SweepResult> => {
    sweeping ??= sweepPurges(executor, (target) => purgeQueue.enqueue(target)).finally(() => {
      sweeping = undefined;
    });
    return sweeping;
  };
  const expireKeys = () =>
    expireIdempotencyKeys(executor, { ttlSeconds: config.idempotencyTtlSeconds });
  const sweepInBackground = () => {
    sweep().then(
      (result) => {
        if (result.projects + result.branches > 0) logger.info(result, 'purge sweep enqueued');
      },
      (error: unknown) => logger.warn({ err: (error as Error).message }, 'purge sweep failed'),
    );
    expireKeys().then(
      (expired) => {
        if (expired > 0) logger.info({ expired }, 'expired idempotency keys forgotten');
      },
      (error: unknown) =>
        logger.warn({ err: (error as Error).message }, 'idempotency key expiry failed'),
    );
  };
  const timer = setInterval(sweepInBackground, config.jobs.purgeSweepIntervalSeconds * 1000);
  sweepInBackground();
  await Promise.all(workers.map((w) => w.waitUntilReady()));
  logger.info({ queues: workers.map((w) => w.name) }, 'worker started');

  return {
    executor,
    purgeQueue,
    workers,
    sweep,
    close: async () => {
      clearInterval(timer);
      if (sweeping) await withinMs(5000, sweeping, 'sweep').catch(() => undefined);
      await Promise.all(workers.map(closeWorker));
      releaseConnection(connection);
      await purgeQueue.close();
      await withinMs(3000, executor.close(), 'closing neo4j').catch(() => undefined);
    },
  };
}
