/**
 * Moves a database written before the versioned store to versioned records, once, at
 * start-up (after the schema): main's records become main's line from its current
 * version, each working branch's full copy becomes its line (main's entities missing
 * from the copy get tombstones, so the branch still does not see them), containment
 * and port relationships are dropped (they are property joins now), and each line's
 * history starts at its current version. Branches stay as costly as they were until
 * merged or discarded; new forks write nothing.
 *
 * Idempotent and resumable: every step skips what is already done, and a marker node
 * ends it so later starts cost one lookup. Progress is logged per step. Then the change
 * trail's touches are backfilled for changes recorded before the trail indexed them
 * (backfillTrail.ts), and every node record gets the lower-cased name the name search
 * reads (backfillNameKeys.ts), each behind a marker of its own.
 */
import type { Logger } from 'pino';
import type { Executor } from '../../../shared/neo4j/executor';
import { backfillNameKeys } from './backfillNameKeys';
import { backfillTrail } from './backfillTrail';
import {
  dropStructureRelationships,
  findMigrationMark,
  MIGRATION_MARKS,
  migrateTombstones,
  setHistoryFloors,
  setMainIds,
  versionRecords,
  writeMigrationMark,
} from './migrationQueries';

export async function migrateStore(executor: Executor, logger: Logger): Promise<void> {
  await versionStore(executor, logger);
  // after the records are versioned: the trail's touches name versioned entities
  await backfillTrail(executor, logger);
  // after the records are versioned: every versioned record, history included
  await backfillNameKeys(executor, logger);
}

async function versionStore(executor: Executor, logger: Logger): Promise<void> {
  const [mark] = await executor.read<{ done: boolean }>(findMigrationMark, {
    id: MIGRATION_MARKS.versionedStore,
  });
  if (mark?.done) return;
  // tombstones and floors first: they select the older branches by their missing
  // main_id, which setMainIds then fills in
  const steps = [
    ...migrateTombstones,
    setHistoryFloors,
    setMainIds,
    ...versionRecords,
    dropStructureRelationships,
  ];
  const started = performance.now();
  for (const [i, step] of steps.entries()) {
    await executor.autoCommit(step);
    logger.debug({ step: step.name, of: steps.length, at: i + 1 }, 'store migration step done');
  }
  await executor.write(writeMigrationMark, { id: MIGRATION_MARKS.versionedStore });
  logger.info({ ms: Math.round(performance.now() - started) }, 'versioned store ready');
}
