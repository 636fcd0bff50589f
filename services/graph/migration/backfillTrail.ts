/**
 * Indexes the touches of changes recorded before the trail did (graph/trail/), once, at
 * start-up after migrateStore: every batch and revert gets the Touch records its deltas
 * give (trail/touches.ts, as a new one would), then every merge is completed like a new
 * merge (store/trailQueries.ts backfillMergeRecord: the merged branch's touches, the
 * bounded summary, its stored copy of the merged deltas dropped). A project imported
 * before then recorded no change, so its imported content has no history entry.
 *
 * Idempotent and resumable: each change is marked `touched` in the statement that
 * indexes it, and a marker node ends the backfill so later starts cost one lookup.
 */
import type { Logger } from 'pino';
import type { Executor } from '../../../shared/neo4j/executor';
import { parseRecordedDeltas } from '../deltas/wireDelta';
import {
  backfillChangeTouches,
  backfillMergeRecord,
  changesWithoutTouches,
} from '../store/trailQueries';
import { findMigrationMark, MIGRATION_MARKS, writeMigrationMark } from './migrationQueries';
import { touchesOf } from '../trail/touches';

/** Changes indexed per transaction. */
const PAGE = 200;

export async function backfillTrail(executor: Executor, logger: Logger): Promise<void> {
  const [mark] = await executor.read<{ done: boolean }>(findMigrationMark, {
    id: MIGRATION_MARKS.trailTouches,
  });
  if (mark?.done) return;
  let batches = 0;
  for (;;) {
    const rows = await executor.read<{ branchId: string; version: number; deltas: string | null }>(
      changesWithoutTouches,
      { kinds: ['batch', 'revert'], limit: PAGE },
    );
    if (rows.length === 0) break;
    const changes = rows.map((r) => ({
      branchId: r.branchId,
      version: r.version,
      touches: touchesOf(parseRecordedDeltas(r.deltas)),
    }));
    await executor.write(backfillChangeTouches, { changes });
    batches += rows.length;
  }
  let merges = 0;
  for (;;) {
    const rows = await executor.read<{ branchId: string; version: number }>(changesWithoutTouches, {
      kinds: ['merge'],
      limit: PAGE,
    });
    if (rows.length === 0) break;
    for (const r of rows) await executor.write(backfillMergeRecord, r);
    merges += rows.length;
  }
  await executor.write(writeMigrationMark, { id: MIGRATION_MARKS.trailTouches });
  if (batches + merges > 0) logger.info({ batches, merges }, 'change trail touches backfilled');
}
