/**
 * Processor of the `purge` queue, run by services/worker. Job names: `project` and `branch`, one
 * target each (see purgeQueue.ts). A transient failure (Neo4j unreachable) is thrown as is and
 * retried with backoff; a malformed job or a target that must not be purged fails at once
 * (UnrecoverableError) and is kept failed with the reason.
 */
import { Job, UnrecoverableError } from 'bullmq';
import type { Logger } from '../../shared/logging/logger';
import type { Executor } from '../../shared/neo4j/executor';
import { purgeBranch, PurgeRefusedError } from './commands/purgeBranch';
import { purgeProject } from './commands/purgeProject';
import type { PurgeJobData } from './purgeQueue';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function targetId(job: Job<PurgeJobData>, key: 'project_id' | 'branch_id'): string {
  const id = job.data?.[key];
  if (typeof id !== 'string' || !UUID.test(id)) {
    throw new UnrecoverableError(`purge job ${job.name} needs data.${key} (a uuid)`);
  }
  return id;
}

async function refusedIsFinal<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof PurgeRefusedError) throw new UnrecoverableError(error.message);
    throw error;
  }
}

export function purgeProcessor(executor: Executor, logger: Logger) {
  return async (job: Job<PurgeJobData>): Promise<Record<string, number>> => {
    const started = Date.now();
    let result: Record<string, number>;
    switch (job.name) {
      case 'project':
        result = { ...(await refusedIsFinal(purgeProject(executor, targetId(job, 'project_id')))) };
        break;
      case 'branch':
        result = { ...(await refusedIsFinal(purgeBranch(executor, targetId(job, 'branch_id')))) };
        break;
      default:
        throw new UnrecoverableError(`unknown purge job name ${JSON.stringify(job.name)}`);
    }
    logger.info(
      { job: job.name, jobId: job.id, ms: Date.now() - started, ...result },
      'purge job done',
    );
    return result;
  };
}
