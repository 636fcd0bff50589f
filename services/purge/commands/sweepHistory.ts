/**
 * History retention, run by the worker's periodic sweep: moves each line's readable
 * floor (`history_floor` on its Branch: reads, diffs and reverts below it answer
 * version_not_found) and removes, in batches, the records no readable version can see.
 *
 * A version stays readable while it was current at some moment of the last
 * HISTORY_RETENTION_DAYS: a line's floor is the version it was at when the window
 * began (the head always stays). Main also keeps its HISTORY_MIN_MAIN_VERSIONS newest
 * versions, and never moves above the base of an active branch: such a branch reads
 * main at its base beneath its own records, and merges and diffs against it. A merged
 * branch stays readable for good, at its base only: main keeps the records valid at
 * the base of each merged branch (its pins) whatever its floor, and drops the others.
 * A record is valid for the versions vfrom <= v < vto of its line, so once the floor
 * is F the records with vto <= F - 1 are seen by no version still readable, unless
 * one of them is valid at a pin; the one version of slack leaves a read that resolved
 * its view just before the floor moved its records. Removing a superseded record of a
 * working branch never uncovers main's: a node's, port's or wire's next record on the
 * branch begins where it ended, at or below F. A kept finding the branch cleared has no
 * record after its closed one (the branch closes its own findings in place), so such a
 * record goes only once a later record of the finding, from at or below F, stays.
 * An imported main's touches are derived from its version-0 records until then: they are
 * written down (recordImportTouches) before the line's floor first moves.
 */
import type { Config } from '../../../shared/config/config';
import { countDeleted } from '../../../shared/neo4j/batchedDelete';
import type { Executor } from '../../../shared/neo4j/executor';
import { recordImportTouches } from '../../graph';
import { findMovableFloors, purgeExpiredRecords, raiseHistoryFloor } from '../store/purgeQueries';

/** Lines handled per sweep; the rest wait for the next one. */
export const HISTORY_SWEEP_LIMIT = 200;

export interface HistoryResult {
  /** Lines whose floor moved. */
  lines: number;
  /** Records removed. */
  records: number;
}

export interface HistorySweepOptions {
  /** The moment the retention window ends (default: now). */
  now?: number;
  /** Only this project's lines (an operator's or a test's pass over one project). */
  projectId?: string;
}

export async function sweepHistory(
  executor: Executor,
  history: Config['history'],
  options: HistorySweepOptions = {},
): Promise<HistoryResult> {
  const now = options.now ?? Date.now();
  const cutoff = new Date(now - history.retentionDays * 86_400_000).toISOString();
  const lines = await executor.read<{
    line: string;
    floor: number;
    pins: number[];
    isMain: boolean;
  }>(findMovableFloors, {
    cutoff,
    minMain: history.minMainVersions,
    projectId: options.projectId ?? null,
    limit: HISTORY_SWEEP_LIMIT,
  });
  let records = 0;
  for (const { line, floor, pins, isMain } of lines) {
    // the records an import's derived touches are read from may go below the floor
    if (isMain) await recordImportTouches(executor, line);
    await executor.write(raiseHistoryFloor, { line, floor });
    for (const query of Object.values(purgeExpiredRecords))
      records += await countDeleted(executor, query, { line, upTo: floor - 1, pins, isMain });
  }
  return { lines: lines.length, records };
}
