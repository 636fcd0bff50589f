/**
 * Abandoned staging, removed by the worker's sweep: a staged import (graphfile) writes
 * its content on the line of a main branch it creates last, and records the stage
 * (VStage) first. A stage still open after STAGE_ABANDONED_MS belongs to an import that
 * crashed: its records are removed in batches, like a discarded branch's, then the
 * stage. A stage whose branch exists was published (its record is only dropped).
 */
import type { Executor } from '../../../shared/neo4j/executor';
import { deleteStage, findAbandonedStages } from '../store/purgeQueries';
import { purgeLine } from './purgeBranch';

/** How long a stage may stay open before the sweep takes it for abandoned. */
export const STAGE_ABANDONED_MS = 60 * 60 * 1000;

export async function sweepStages(
  executor: Executor,
  now: number = Date.now(),
): Promise<{ stages: number; records: number }> {
  const stages = await executor.read<{ line: string; published: boolean }>(findAbandonedStages, {
    before: new Date(now - STAGE_ABANDONED_MS).toISOString(),
    limit: 100,
  });
  let records = 0;
  for (const { line, published } of stages) {
    if (!published) {
      const removed = await purgeLine(executor, line);
      records += removed.nodes + removed.ports + removed.edges;
    }
    await executor.write(deleteStage, { line });
  }
  return { stages: stages.length, records };
}
