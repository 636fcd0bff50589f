/**
 * Cypher of the background purges. Every delete runs as `CALL { ... } IN TRANSACTIONS OF 1000 ROWS`
 * through Executor.autoCommit, so a purge of any size commits in small transactions and never holds
 * locks that the API's reads and writes would wait on. Every query is idempotent: a rerun finds
 * nothing and answers 0.
 */
import { cypher } from '../../../shared/neo4j/namedQuery';

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
];

export const findBranchForPurge = cypher(
  'findBranchForPurge',
  `MATCH (b:Branch {id: $branchId})
   RETURN b.status AS status, b.deleted_at IS NOT NULL AS deleted`,
);

export const findProjectForPurge = cypher(
  'findProjectForPurge',
  `MATCH (p:Project {id: $projectId})
   RETURN p.deleted_at IS NOT NULL AS deleted`,
);

export const listProjectBranchIds = cypher(
  'listProjectBranchIds',
  `MATCH (b:Branch {project_id: $projectId}) WHERE b.owner_id IS NOT NULL
   RETURN b.id AS id`,
);

function batchDelete(
  name: string,
  match: string,
  remove = 'DETACH DELETE x',
): ReturnType<typeof cypher> {
  return cypher(
    name,
    `${match}
     CALL (x) { ${remove} } IN TRANSACTIONS OF 1000 ROWS
     RETURN count(*) AS deleted`,
  );
}

export const purgeBranchPorts = batchDelete(
  'purgeBranchPorts',
  'MATCH (x:Port {branch_id: $branchId})',
);
export const purgeBranchNodes = batchDelete(
  'purgeBranchNodes',
  'MATCH (x:GNode {branch_id: $branchId})',
);
export const purgeBranchEdges = batchDelete(
  'purgeBranchEdges',
  'MATCH (x:Edge {branch_id: $branchId})',
);
/** The line's kept findings (graph's findingRecords.ts). */
export const purgeBranchFindings = batchDelete(
  'purgeBranchFindings',
  'MATCH (x:GFinding {branch_id: $branchId})',
);
/** The structural_changes trail: only with the whole project (a discard keeps it). */
export const purgeBranchChanges = batchDelete(
  'purgeBranchChanges',
  'MATCH (x:Change {branch_id: $branchId}) WHERE x.version IS NOT NULL',
);
/** What the trail's changes touched (graph/trail/touches.ts), through its
 * (branch_id, key, version) index: with the trail, or with a refused staged import. */
export const purgeBranchTouches = batchDelete(
  'purgeBranchTouches',
  'MATCH (x:Touch {branch_id: $branchId}) WHERE x.key IS NOT NULL AND x.version IS NOT NULL',
);
export const purgeProjectDecisions = batchDelete(
  'purgeProjectDecisions',
  'MATCH (x:Decision {project_id: $projectId})',
);
export const purgeProjectMemberships = batchDelete(
  'purgeProjectMemberships',
  'MATCH (:User)-[x:MEMBER_OF]->(:Project {id: $projectId})',
  'DELETE x',
);
export const purgeProjectBranches = batchDelete(
  'purgeProjectBranches',
  'MATCH (x:Branch {project_id: $projectId}) WHERE x.owner_id IS NOT NULL',
);

/** The last step of a project purge: the sweep stops finding it. Never a live project. */
export const deleteDeletedProject = cypher(
  'deleteDeletedProject',
  `MATCH (p:Project {id: $projectId}) WHERE p.deleted_at IS NOT NULL
   DETACH DELETE p
   RETURN count(*) AS deleted`,
);

export const markBranchPurged = cypher(
  'markBranchPurged',
  `MATCH (b:Branch {id: $branchId})
   SET b.purged_at = coalesce(b.purged_at, $now)
   RETURN b.id AS id`,
);

/** Deleted projects not yet purged (the purge removes the project node last). */
export const findUnpurgedProjects = cypher(
  'findUnpurgedProjects',
  `MATCH (p:Project) WHERE p.deleted_at IS NOT NULL
   RETURN p.id AS id
   ORDER BY p.deleted_at ASC
   LIMIT toInteger($limit)`,
);

/** Discarded branches of live projects whose content purge has not finished. */
export const findUnpurgedBranches = cypher(
  'findUnpurgedBranches',
  `MATCH (b:Branch {status: 'discarded'})
   WHERE b.purged_at IS NULL AND b.deleted_at IS NULL
   RETURN b.id AS id
   LIMIT toInteger($limit)`,
);

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
export const findMovableFloors = cypher(
  'findMovableFloors',
  `CALL () {
     MATCH (b:Branch) WHERE b.status IN ['active', 'merged'] AND b.deleted_at IS NULL
       AND b.is_main = false AND ($projectId IS NULL OR b.project_id = $projectId)
     CALL (b) {
       MATCH (c:Change {branch_id: b.id}) USING INDEX SEEK c:Change(branch_id, created_at)
       WHERE c.created_at < $cutoff
       RETURN max(c.version) AS atCutoff
     }
     RETURN b, coalesce(atCutoff, 0) AS floor
     UNION ALL
     MATCH (b:Branch) WHERE b.is_main = true AND b.deleted_at IS NULL
       AND ($projectId IS NULL OR b.project_id = $projectId)
     CALL (b) {
       MATCH (c:Change {branch_id: b.id}) USING INDEX SEEK c:Change(branch_id, created_at)
       WHERE c.created_at < $cutoff
       RETURN max(c.version) AS atCutoff
     }
     CALL (b) {
       MATCH (o:Branch {project_id: b.project_id})
       WHERE o.is_main = false AND o.deleted_at IS NULL AND o.status = 'active'
       // a rebased branch still reads main at its earlier bases for versions before a rebase
       RETURN min(reduce(low = o.base_main_version, x IN coalesce(o.prior_bases, []) |
                         CASE WHEN x < low THEN x ELSE low END)) AS lowestBase
     }
     WITH b, [x IN [coalesce(atCutoff, 0), b.version - toInteger($minMain) + 1, lowestBase]
              WHERE x IS NOT NULL] AS bounds
     RETURN b, reduce(f = b.version, x IN bounds | CASE WHEN x < f THEN x ELSE f END) AS floor
   }
   WITH b, floor WHERE floor > coalesce(b.history_floor, 0)
   CALL (b, floor) {
     OPTIONAL MATCH (o:Branch {project_id: b.project_id})
     WHERE b.is_main AND o.is_main = false AND o.deleted_at IS NULL AND o.status = 'merged'
       AND o.base_main_version < floor
     WITH DISTINCT o.base_main_version AS pin WHERE pin IS NOT NULL
     RETURN collect(pin) AS pins
   }
   RETURN b.id AS line, floor, pins
   LIMIT toInteger($limit)`,
);

/** Moves a line's readable floor up (never down). */
export const raiseHistoryFloor = cypher(
  'raiseHistoryFloor',
  `MATCH (b:Branch {id: $line})
   SET b.history_floor = CASE WHEN coalesce(b.history_floor, 0) < $floor
                              THEN toInteger($floor) ELSE b.history_floor END
   RETURN b.history_floor AS floor`,
);

const expired = (label: string) =>
  batchDelete(
    `purgeExpired${label}Records`,
    `MATCH (x:${label} {branch_id: $line}) WHERE x.vto <= toInteger($upTo)
       AND NONE(pin IN $pins WHERE x.vfrom <= pin AND pin < x.vto)`,
  );

/** Records of a line no readable version sees: valid only below version $upTo, and at
 * none of the versions in $pins (main at the base of a merged branch). */
export const purgeExpiredRecords = {
  GNode: expired('GNode'),
  Port: expired('Port'),
  Edge: expired('Edge'),
  GFinding: expired('GFinding'),
};

/**
 * Whether stage `s` is abandoned: its lease (lease_until, ms) ran out before $now, or,
 * for a stage written before leases, it started before $before.
 */
const ABANDONED = `CASE WHEN s.lease_until IS NULL THEN s.started_at < $before
                        ELSE s.lease_until < $now END`;

/** Stages (VStage, graphfile's staged import) abandoned by a crashed or stalled import. */
export const findAbandonedStages = cypher(
  'findAbandonedStages',
  `MATCH (s:VStage) WHERE ${ABANDONED}
   RETURN s.line AS line
   LIMIT toInteger($limit)`,
);

/**
 * Takes an abandoned stage for the sweep under the stage's lock (an import's
 * transaction renewing it meanwhile has committed by then, and is seen): marks it
 * taken (the import can no longer renew or publish it) with the sweep's own lease
 * to $until. No row when it was renewed or is gone; `published` when its line is a
 * branch already (only its record is left).
 */
export const takeOverStage = cypher(
  'takeOverStage',
  `MATCH (s:VStage {line: $line})
   SET s.lock_seq = coalesce(s.lock_seq, 0) + 1
   WITH s WHERE ${ABANDONED}
   SET s.taken_at = $now, s.lease_until = $until
   RETURN EXISTS { MATCH (:Branch {id: s.line}) } AS published`,
);

export const deleteStage = cypher(
  'deleteStage',
  `MATCH (s:VStage {line: $line})
   DELETE s
   RETURN count(*) AS deleted`,
);
