/**
 * Cypher of the background purges. Every delete runs as `CALL { ... } IN TRANSACTIONS OF 1000 ROWS`
 * through Executor.autoCommit, so a purge of any size commits in small transactions and never holds
 * locks that the API's reads and writes would wait on. Every query is idempotent: a rerun finds
 * nothing and answers 0.
 */
import { join } from 'node:path';
import { statementsIn } from '../../../shared/neo4j/statementFiles';
import { cypher } from '../../../shared/neo4j/namedQuery';

const statement = statementsIn(join(__dirname, 'statements'));

/** Indexes the sweep uses to find purges still owed. */
export const purgeSchema = [
  cypher(
    'projectDeletedIndex',
    'CREATE INDEX project_deleted IF NOT EXISTS FOR (p:Project) ON (p.deleted_at)',
  ),
  cypher(
    'branchStatusIndex',
    'CREATE INDEX branch_status IF NOT EXISTS FOR (b:Branch) ON (b.status)',
  ),
  cypher(
    'stageStartedIndex',
    'CREATE INDEX vstage_started IF NOT EXISTS FOR (s:VStage) ON (s.started_at)',
  ),
  cypher('stageLineIndex', 'CREATE INDEX vstage_line IF NOT EXISTS FOR (s:VStage) ON (s.line)'),
  cypher(
    'stageLaneIndex',
    'CREATE INDEX vstage_lane_line IF NOT EXISTS FOR (l:VStageLane) ON (l.line)',
  ),
];

export const findBranchForPurge = statement('findBranchForPurge');

export const findProjectForPurge = statement('findProjectForPurge');

export const listProjectBranchIds = statement('listProjectBranchIds');

// The purges below delete what they match in batches of 1000 rows, each its own
// transaction (CALL (x) { DETACH DELETE x } IN TRANSACTIONS), answering how many.

export const purgeBranchPorts = statement('purgeBranchPorts');
export const purgeBranchNodes = statement('purgeBranchNodes');
export const purgeBranchEdges = statement('purgeBranchEdges');
/** The line's kept findings (graph's findingRecords.ts). */
export const purgeBranchFindings = statement('purgeBranchFindings');
/** The structural_changes trail: only with the whole project (a discard keeps it). */
export const purgeBranchChanges = statement('purgeBranchChanges');
/** What the trail's changes touched (graph/trail/touches.ts), through its
 * (branch_id, key, version) index: with the trail, or with a refused staged import. */
export const purgeBranchTouches = statement('purgeBranchTouches');
export const purgeProjectDecisions = statement('purgeProjectDecisions');
export const purgeProjectMemberships = statement('purgeProjectMemberships');
export const purgeProjectBranches = statement('purgeProjectBranches');

/** The last step of a project purge: the sweep stops finding it. Never a live project. */
export const deleteDeletedProject = statement('deleteDeletedProject');

export const markBranchPurged = statement('markBranchPurged');

/** Deleted projects not yet purged (the purge removes the project node last). */
export const findUnpurgedProjects = statement('findUnpurgedProjects');

/** Discarded branches of live projects whose content purge has not finished. */
export const findUnpurgedBranches = statement('findUnpurgedBranches');

/**
 * History retention (sweepHistory.ts). A line's readable floor moves up to the version
 * it was at when the retention window began ($cutoff: the newest version published
 * before it; the head is always readable). Main also keeps its $minMain newest versions
 * and every version from the lowest base of its active branches on, since those read
 * main there beneath their own records, and merge and diff against it.
 *
 * A merged branch stays readable for good but only reads main at its one base, so it
 * does not hold main's floor: main's row names those bases below the new floor as
 * `pins`, and the sweep keeps the records valid at a pin (as lakeFS keeps the commits
 * a branch points at while collecting the rest). Rows: the lines whose floor would move
 * (at most $limit; of project $projectId only unless it is null), with the new floor
 * and the pins (none on a working branch's line).
 */
export const findMovableFloors = statement('findMovableFloors');

/** Moves a line's readable floor up (never down). */
export const raiseHistoryFloor = statement('raiseHistoryFloor');

const expired = (label: string) => statement(`purgeExpired${label}Records`);

/** Records of a line no readable version sees: valid only below version $upTo, and at
 * none of the versions in $pins (main at the base of a merged branch). On a working
 * branch's line ($isMain false), a kept finding's record is removed only when a record
 * of the same finding that stays takes over from it at or below the floor ($upTo + 1):
 * the branch closes the findings it recorded itself without a tombstone after them, so
 * its last record of a cleared finding is what hides main's record of it. */
export const purgeExpiredRecords = {
  GNode: expired('GNode'),
  Port: expired('Port'),
  Edge: expired('Edge'),
  GFinding: expired('GFinding'),
};

/**
 * Whether stage `s` is abandoned: its lease (lease_until, ms) ran out before $now, or,
 * for a stage written before leases, it started before $before. The definition
 * findAbandonedStages and takeOverStage hold (purgeStatements.spec.ts).
 */
export const ABANDONED = `CASE WHEN s.lease_until IS NULL THEN s.started_at < $before
                        ELSE s.lease_until < $now END`;

/** Stages (VStage, graphfile's staged import) abandoned by a crashed or stalled import. */
export const findAbandonedStages = statement('findAbandonedStages');

/**
 * Takes an abandoned stage for the sweep under the stage's lock (an import's
 * transaction renewing it meanwhile has committed by then, and is seen): marks it
 * taken (the import can no longer renew or publish it) with the sweep's own lease
 * to $until, then takes the lock of each of its lanes (VStageLane), so a part of the
 * content still being written commits before the sweep removes what was staged, and
 * no part starts after it. No row when it was renewed or is gone; `published` when its
 * line is a branch already (only its record is left).
 */
export const takeOverStage = statement('takeOverStage');

export const deleteStage = statement('deleteStage');
