/**
 * Abandoned staging, removed by the worker's sweep: a staged import (graphfile) writes
 * its content on the line of a main branch it creates last, and records the stage
 * (VStage) first, with a lease each of its transactions renews. A stage whose lease ran
 * out belongs to an import that crashed or stalled: the sweep takes it under its lock
 * (the import then answers 503 rather than publish it), removes its records in batches,
 * like a discarded branch's, then the stage. A stage whose branch exists was published
 * (its record is only dropped). A stage written before leases is abandoned once it is
 * STAGE_ABANDONED_MS old.
 */
import type { Executor } from '../../../shared/neo4j/executor';
import type { QueryRunner } from '../../../shared/neo4j/namedQuery';
import { deleteStage, findAbandonedStages, takeOverStage } from '../store/purgeQueries';
import { purgeLine } from './purgeBranch';

/**
 * Removes stage `line`'s record and its lanes: the import published it (in its
 * publishing transaction), gave it up, or the sweep removed what it staged.
 */
export async function deleteStageRecord(tx: QueryRunner, line: string): Promise<void> {
  await tx.run(deleteStage, { line });
}

/** How long a stage without a lease may stay open before the sweep takes it for abandoned. */
export const STAGE_ABANDONED_MS = 60 * 60 * 1000;

/** How long a stage the sweep took stays its own (another sweep may take it after). */
const SWEEP_LEASE_MS = 10 * 60_000;

export async function sweepStages(
  executor: Executor,
  now: number = Date.now(),
): Promise<{ stages: number; records: number }> {
  const at = { now, before: new Date(now - STAGE_ABANDONED_MS).toISOString() };
  const stages = await executor.read<{ line: string }>(findAbandonedStages, { ...at, limit: 100 });
  let taken = 0;
  let records = 0;
  for (const { line } of stages) {
    const row = await executor.writeTx((tx) =>
      tx.one<{ published: boolean }>(takeOverStage, { ...at, line, until: now + SWEEP_LEASE_MS }),
    );
    if (!row) continue; // renewed meanwhile, or gone
    if (!row.published) {
      const removed = await purgeLine(executor, line);
      records += removed.nodes + removed.ports + removed.edges;
    }
    await executor.writeTx((tx) => deleteStageRecord(tx, line));
    taken += 1;
  }
  return { stages: taken, records };
}
