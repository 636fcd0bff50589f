/**
 * Gives every node record written before records carried `name_key` (the lower-cased
 * name, deltas/nodeState.ts nameKeyOf) its key, once, at start-up after migrateStore's
 * other steps: the name search (store/searchQueries.ts) finds a node only through the
 * indexes on that key, so a record without one would never be found. Every record of
 * every line and version gets it, history included: a search pinned to an old version
 * reads those records too.
 *
 * Idempotent and resumable: only records without a key are written, in batches, and a
 * marker node ends the backfill so later starts cost one lookup.
 */
import type { Logger } from 'pino';
import type { Executor } from '../../../shared/neo4j/executor';
import {
  backfillNodeNameKeys,
  findMigrationMark,
  MIGRATION_MARKS,
  writeMigrationMark,
} from './migrationQueries';

export async function backfillNameKeys(executor: Executor, logger: Logger): Promise<void> {
  const [mark] = await executor.read<{ done: boolean }>(findMigrationMark, {
    id: MIGRATION_MARKS.nameKeys,
  });
  if (mark?.done) return;
  const started = performance.now();
  await executor.autoCommit(backfillNodeNameKeys);
  await executor.write(writeMigrationMark, { id: MIGRATION_MARKS.nameKeys });
  logger.info({ ms: Math.round(performance.now() - started) }, 'node name keys backfilled');
}
