/**
 * The BullMQ queue `purge`. One job per deleted project or discarded branch, deduplicated by its
 * jobId (`project-<id>`, `branch-<id>`): while a job for a target waits or runs, adding it again is
 * a no-op. Jobs live in Redis, so they survive a worker restart. A job kept failed (attempts
 * exhausted) is retried when the sweep finds its target again.
 *
 * `request` is the hook the deleting commands call after commit: it never
 * throws and gives up after a short timeout; the sweep (purgeSweep.ts) then
 * finds the target in Neo4j and enqueues it, so nothing is lost.
 */
import { ConnectionOptions, JobsOptions, Queue } from 'bullmq';
import type { Config } from '../../shared/config/config';
import type { PurgeRequests, PurgeTarget } from '../../shared/jobs/purgeRequests';
import type { Logger } from '../../shared/logging/logger';
import {
  producerConnection,
  queuePrefix,
  releaseConnection,
  withinMs,
} from '../../shared/redis/queueConnection';
import { publishJob, TracedJobData } from '../../shared/telemetry/jobTrace';

export const PURGE_QUEUE = 'purge';

/** `trace_context`: the request that queued the job, when traced (jobTrace.ts). */
export interface PurgeJobData extends TracedJobData {
  project_id?: string;
  branch_id?: string;
}

export function purgeJobId(target: PurgeTarget): string {
  return target.kind === 'project' ? `project-${target.projectId}` : `branch-${target.branchId}`;
}

export function purgeJobOptions(config: Config): JobsOptions {
  return {
    attempts: config.jobs.jobAttempts,
    backoff: { type: 'exponential', delay: config.jobs.jobBackoffMs },
    removeOnComplete: true,
    removeOnFail: { count: 1000 },
  };
}

export interface PurgeQueueOptions {
  config: Config;
  logger: Logger;
  /** A single Redis at this URL instead of the configured Redis (or cluster). */
  redisUrl?: string;
  queueName?: string;
  /** How long `request` waits for Redis before leaving the target to the sweep. */
  requestTimeoutMs?: number;
}

export class PurgeQueue implements PurgeRequests {
  readonly queue: Queue;
  private readonly logger: Logger;
  private readonly config: Config;
  private readonly requestTimeoutMs: number;
  private readonly connection: ConnectionOptions;

  constructor(options: PurgeQueueOptions) {
    this.config = options.config;
    this.logger = options.logger;
    this.requestTimeoutMs = options.requestTimeoutMs ?? 1500;
    const settings = options.redisUrl
      ? { redisUrl: options.redisUrl, redisClusterNodes: undefined }
      : options.config;
    this.connection = producerConnection(settings);
    this.queue = new Queue(options.queueName ?? PURGE_QUEUE, {
      // Waits for the first `ready` (ioredis keeps reconnecting): an enqueue made
      // before then is bounded by `request`'s timeout, never an error that sticks.
      connection: this.connection,
      prefix: queuePrefix(settings),
    });
    let lastError = '';
    this.queue.on('error', (error: Error) => {
      if (error.message !== lastError)
        this.logger.warn({ err: error.message }, 'purge queue error');
      lastError = error.message;
    });
  }

  /** The post-commit hook: best effort, never throws, bounded in time. */
  async request(target: PurgeTarget): Promise<void> {
    try {
      await withinMs(this.requestTimeoutMs, this.enqueue(target), 'purge enqueue');
    } catch (error) {
      this.logger.warn(
        { target, err: (error as Error).message },
        'purge not enqueued; the worker sweep will purge it later',
      );
    }
  }

  /** Adds the job (deduplicated by jobId); a job kept failed is retried instead. */
  async enqueue(target: PurgeTarget): Promise<void> {
    const jobId = purgeJobId(target);
    const existing = await this.queue.getJob(jobId);
    if (existing && (await existing.isFailed())) {
      await existing.retry('failed', { resetAttemptsMade: true, resetAttemptsStarted: true });
      return;
    }
    const data: PurgeJobData =
      target.kind === 'project' ? { project_id: target.projectId } : { branch_id: target.branchId };
    await publishJob(this.queue.name, target.kind, (traced) =>
      this.queue.add(
        target.kind,
        { ...data, ...traced },
        { ...purgeJobOptions(this.config), jobId },
      ),
    );
  }

  /** Closes the connection; bounded, so a Redis outage never holds a shutdown. */
  async close(): Promise<void> {
    try {
      await withinMs(3000, this.queue.close(), 'closing the purge queue');
    } catch (error) {
      this.logger.warn({ err: (error as Error).message }, 'purge queue did not close cleanly');
    }
    releaseConnection(this.connection);
  }
}
