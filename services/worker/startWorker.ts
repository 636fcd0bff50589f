/**
 * The background worker: BullMQ Workers for the queues `decisions` (ingestion of
 * decision records) and `purge` (what deleted projects and discarded branches leave
 * behind), plus the periodic purge sweep, history retention (sweepHistory) and the
 * expiry of recorded Idempotency-Keys.
 * Used by main.ts, the launcher that runs it beside the gateway, and the tests
 * (in-process), so all run the same wiring.
 */
import { Processor, Queue, Worker } from 'bullmq';
import type { Config } from '../../shared/config/config';
import type { Logger } from '../../shared/logging/logger';
import type { Executor } from '../../shared/neo4j/executor';
import {
  producerConnection,
  queuePrefix,
  releaseConnection,
  withinMs,
  workerConnection,
} from '../../shared/redis/queueConnection';
import { decisionProcessor, DECISIONS_QUEUE } from '../decisions';
import { backfillKeptFindings, BackfillResult, expireIdempotencyKeys } from '../graph';
import { sweepMergeStagings } from '../merge';
import { openStores } from '../platform';
import {
  HistoryResult,
  PURGE_QUEUE,
  purgeProcessor,
  PurgeQueue,
  sweepHistory,
  sweepPurges,
  sweepStages,
  SweepResult,
} from '../purge';
import { bestEffort } from '../../shared/async/promises';
import { tracedProcessor } from '../../shared/telemetry/jobTrace';
import { deliveryProcessor, dispatchDeliveries, WEBHOOKS_QUEUE } from '../webhooks';

export interface WorkerQueues {
  /** Queue names (tests use fresh ones); default `decisions` and `purge`. */
  decisions?: string;
  purge?: string;
  webhooks?: string;
}

export interface RunningWorker {
  executor: Executor;
  purgeQueue: PurgeQueue;
  workers: Worker[];
  /** Runs one sweep now (the timer runs one every PURGE_SWEEP_INTERVAL_S). */
  sweep(): Promise<SweepResult>;
  /** Runs one history retention pass now (the timer runs one with every sweep). */
  retainHistory(): Promise<HistoryResult>;
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
  const { executor } = await openStores(config, logger);

  const connection = workerConnection(config);
  const prefix = queuePrefix(config);
  const purgeQueue = new PurgeQueue({ config, logger, queueName: queues.purge });
  /** `kept`: how many finished jobs stay in Redis to be looked at (failed ones 10 times as many). */
  // with tracing on, each job runs in a span linked to the request that queued it
  const traced = (name: string, processor: Processor) =>
    config.telemetry ? tracedProcessor(name, processor) : processor;
  const worker = (name: string, processor: Processor, concurrency: number, kept: number) =>
    watch(
      new Worker(name, traced(name, processor), {
        connection,
        prefix,
        concurrency,
        removeOnComplete: { count: kept },
        removeOnFail: { count: kept * 10 },
      }),
      logger,
    );
  const webhooksQueueName = queues.webhooks ?? WEBHOOKS_QUEUE;
  const webhookProducer = producerConnection(config);
  const webhookQueue = new Queue(webhooksQueueName, { connection: webhookProducer, prefix });
  const workers = [
    worker(queues.decisions ?? DECISIONS_QUEUE, decisionProcessor(executor, logger), 4, 1000),
    worker(queues.purge ?? PURGE_QUEUE, purgeProcessor(executor, logger), 2, 100),
    worker(webhooksQueueName, deliveryProcessor(executor, config), 4, 1000),
  ];
  /** New feed events become webhook deliveries, each queued as a job (its id the delivery's). */
  let dispatching: Promise<void> | undefined;
  const dispatch = () => {
    dispatching ??= dispatchDeliveries(executor)
      .then(async (ids) => {
        for (const id of ids)
          await webhookQueue.add(
            'deliver',
            { delivery_id: id },
            {
              jobId: id,
              attempts: config.webhooks.attempts,
              backoff: { type: 'exponential', delay: config.webhooks.backoffMs },
              removeOnComplete: { count: 1000 },
              removeOnFail: { count: 10_000 },
            },
          );
      })
      .catch((error: unknown) =>
        logger.warn(
          { err: (error as Error).message },
          'webhook dispatch failed; retried next round',
        ),
      )
      .finally(() => {
        dispatching = undefined;
      });
  };
  const dispatchTimer = setInterval(dispatch, config.webhooks.dispatchMs);

  let sweeping: Promise<SweepResult> | undefined;
  const sweep = (): Promise<SweepResult> => {
    sweeping ??= sweepPurges(executor, (target) => purgeQueue.enqueue(target)).finally(() => {
      sweeping = undefined;
    });
    return sweeping;
  };
  let retaining: Promise<HistoryResult> | undefined;
  /** History retention, then abandoned staging: both remove records no reader sees. */
  const retainHistory = (): Promise<HistoryResult> => {
    retaining ??= sweepHistory(executor, config.history)
      .then(async (result) => {
        const stages = await sweepStages(executor);
        return { ...result, records: result.records + stages.records };
      })
      .finally(() => {
        retaining = undefined;
      });
    return retaining;
  };
  let backfilling: Promise<BackfillResult> | undefined;
  /** Kept findings for mains of stores written before findings were kept (one run at a time). */
  const backfill = (): Promise<BackfillResult> => {
    backfilling ??= backfillKeptFindings(executor, { chunk: config.staging.records }).finally(
      () => {
        backfilling = undefined;
      },
    );
    return backfilling;
  };
  const expireKeys = () =>
    expireIdempotencyKeys(executor, { ttlSeconds: config.idempotencyTtlSeconds });
  /** Runs `work` without waiting; logs what it did (when it did something) or why it failed. */
  const inBackground = <T>(work: Promise<T>, did: (value: T) => object | undefined, what: string) =>
    work.then(
      (value) => {
        const done = did(value);
        if (done) logger.info(done, `${what} done`);
      },
      (error: unknown) => logger.warn({ err: (error as Error).message }, `${what} failed`),
    );
  const sweepInBackground = () => {
    void inBackground(sweep(), (r) => (r.projects + r.branches > 0 ? r : undefined), 'purge sweep');
    void inBackground(retainHistory(), (r) => (r.lines > 0 ? r : undefined), 'history retention');
    void inBackground(
      sweepMergeStagings(executor),
      (removed) => (removed > 0 ? { removed } : undefined),
      'merge staging sweep',
    );
    void inBackground(
      backfill(),
      (r) => (r.kept + r.deferred > 0 ? r : undefined),
      'kept findings backfill',
    );
    void inBackground(
      expireKeys(),
      (expired) => (expired > 0 ? { expired } : undefined),
      'idempotency key expiry',
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
    retainHistory,
    close: async () => {
      clearInterval(timer);
      clearInterval(dispatchTimer);
      if (dispatching)
        await bestEffort(
          withinMs(5000, dispatching, 'webhook dispatch'),
          'the next round dispatches',
        );
      // a sweep cut short is taken up again by the next process's first sweep
      if (sweeping)
        await bestEffort(withinMs(5000, sweeping, 'sweep'), 'the next sweep resumes it');
      if (retaining)
        await bestEffort(
          withinMs(5000, retaining, 'history retention'),
          'the next sweep resumes it',
        );
      await Promise.all(workers.map(closeWorker));
      releaseConnection(connection);
      await purgeQueue.close();
      await webhookQueue.close();
      releaseConnection(webhookProducer);
      await bestEffort(withinMs(3000, executor.close(), 'closing neo4j'), 'the process is exiting');
    },
  };
}
