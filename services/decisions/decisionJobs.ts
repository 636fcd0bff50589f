/**
 * Ingestion through the BullMQ queue `decisions`: each job's data is one DecisionOut-shaped record
 * in any state.
 *
 * - an invalid payload, an unknown or deleted project, or an id owned by another
 *   project fails the job at once (UnrecoverableError) and the job is kept in
 *   the failed set with the reason;
 * - a transient failure (Neo4j unreachable) is thrown as is, so BullMQ retries
 *   it with exponential backoff (decisionJobOptions) before keeping it failed;
 * - a valid record is upserted by id, so a retried or repeated job is harmless.
 */
import { Job, JobsOptions, UnrecoverableError } from 'bullmq';
import type { Config } from '../../shared/config/config';
import { DomainError, ServiceUnavailableError } from '../../shared/errors/domainErrors';
import type { Logger } from '../../shared/logging/logger';
import type { Executor } from '../../shared/neo4j/executor';
import { upsertDecisions } from './commands/upsertDecisions';
import { parseDecision } from './parseDecision';

export const DECISIONS_QUEUE = 'decisions';

/** Options producers should add decision jobs with (graphctl, tests, other services). */
export function decisionJobOptions(config: Config): JobsOptions {
  return {
    attempts: config.jobs.jobAttempts,
    backoff: { type: 'exponential', delay: config.jobs.jobBackoffMs },
    removeOnComplete: { count: 1000 },
    removeOnFail: false,
  };
}

export interface DecisionJobResult {
  id: string;
  state: string;
}

export function decisionProcessor(executor: Executor, logger: Logger) {
  return async (job: Job): Promise<DecisionJobResult> => {
    const parsed = parseDecision(job.data);
    if (!parsed.ok) {
      throw new UnrecoverableError(`invalid decision: ${parsed.problems.join('; ')}`);
    }
    const { record } = parsed;
    try {
      await upsertDecisions(executor, record.project_id, [record]);
    } catch (error) {
      if (error instanceof ServiceUnavailableError) throw error;
      if (error instanceof DomainError) {
        throw new UnrecoverableError(`decision ${record.id} refused: ${error.message}`);
      }
      throw error;
    }
    logger.debug({ jobId: job.id, decisionId: record.id, state: record.state }, 'decision stored');
    return { id: record.id, state: record.state };
  };
}
