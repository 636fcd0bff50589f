/** Cypher of the branches service. */
import { cypher } from '../../../shared/neo4j/namedQuery';

export const branchSchema = [
  cypher(
    'branchIdUnique',
    'CREATE CONSTRAINT branch_id IF NOT EXISTS FOR (b:Branch) REQUIRE b.id IS UNIQUE',
  ),
  cypher(
    'branchProjectIndex',
    'CREATE INDEX branch_project IF NOT EXISTS FOR (b:Branch) ON (b.project_id, b.owner_id)',
  ),
  // Main is found by project alone (findMainBranch, lockMainBranchOf, merge's and the
  // boundary read's lookups): without an index on project_id by itself those are a scan
  // of every branch of every project, since the composite index above needs the owner.
  cypher(
    'branchProjectOnlyIndex',
    'CREATE INDEX branch_project_only IF NOT EXISTS FOR (b:Branch) ON (b.project_id)',
  ),
];

const BRANCH = 'b {.*} AS branch';

export const createBranch = cypher(
  'createBranch',
  `CREATE (b:Branch {id: $id, project_id: $projectId, owner_id: $ownerId, name: $name,
                     name_lower: $nameLower, status: 'active', is_main: $isMain, version: 0,
                     base_main_version: $baseMainVersion, main_id: $mainId,
                     created_at: $now, last_active_at: $now,
                     merged_at: null, node_count: $usage.nodes, edge_count: $usage.edges,
                     stored_bytes: $usage.bytes})
   // findings are kept as records from the first version of a main, and on a fork of a
   // main that keeps them (graph's findingRecords.ts); older stores compute them whole
   WITH b
   OPTIONAL MATCH (m:Branch {id: $mainId}) WHERE NOT $isMain
   SET b.findings_from = CASE WHEN $isMain OR m.findings_from IS NOT NULL THEN 0 END
   RETURN ${BRANCH}`,
);

/**
 * Binds branch `b`'s live project `p` and the caller's ($userId) membership `m`.
 * Reads that answer in one statement start with it and return
 * `b {.*} AS branch, p {.*} AS project, m.role AS role` for branchGrant().
 */
export const BRANCH_ACCESS = `WITH b
   OPTIONAL MATCH (p:Project {id: b.project_id}) WHERE p.deleted_at IS NULL
   OPTIONAL MATCH (:User {id: $userId})-[m:MEMBER_OF]->(p)`;

const WITH_ACCESS = `${BRANCH_ACCESS}
   RETURN ${BRANCH}, p {.*} AS project, m.role AS role`;

/** A branch with its project and the caller's role, in one round trip. */
export const findBranchWithAccess = cypher(
  'findBranchWithAccess',
  `MATCH (b:Branch {id: $id}) WHERE b.deleted_at IS NULL
   ${WITH_ACCESS}`,
);

/**
 * Binds the live branch $id as `b` under its exclusive write lock (held until commit):
 * every compare-then-write on a branch's version starts here, so concurrent writers
 * serialize and exactly one of them sees the version it expected.
 */
export const LOCK_BRANCH = `MATCH (b:Branch {id: $id}) WHERE b.deleted_at IS NULL
   SET b.lock_seq = coalesce(b.lock_seq, 0) + 1`;

/** findBranchWithAccess under the branch's write lock (LOCK_BRANCH). */
export const lockBranchWithAccess = cypher(
  'lockBranchWithAccess',
  `${LOCK_BRANCH}
   ${WITH_ACCESS}`,
);

export const findMainBranch = cypher(
  'findMainBranch',
  `MATCH (b:Branch {project_id: $projectId, is_main: true}) WHERE b.deleted_at IS NULL
   RETURN ${BRANCH}`,
);

/**
 * A working branch of main $mainId forked at main's version $baseMainVersion, for one
 * dry run's transaction only (it is always rolled back, so no one else ever sees it): its
 * line takes the dry run's writes, so main's own records are read, never written or
 * locked. Its findings are kept as a fork's are (createBranch).
 */
export const createDryRunFork = cypher(
  'createDryRunFork',
  `MATCH (m:Branch {id: $mainId})
   CREATE (b:Branch {id: $id, project_id: m.project_id, owner_id: $ownerId, name: $id,
                     name_lower: $id, status: 'active', is_main: false, version: 0,
                     base_main_version: $baseMainVersion, main_id: m.id,
                     created_at: $now, last_active_at: $now, merged_at: null,
                     node_count: m.node_count, edge_count: m.edge_count,
                     stored_bytes: m.stored_bytes, dry_run: true})
   SET b.findings_from = CASE WHEN m.findings_from IS NOT NULL THEN 0 END
   RETURN ${BRANCH}`,
);

/** Main under its write lock: forks and merges of a project serialize on it. */
export const lockMainBranchOf = cypher(
  'lockMainBranchOf',
  `MATCH (b:Branch {project_id: $projectId, is_main: true}) WHERE b.deleted_at IS NULL
   SET b.lock_seq = coalesce(b.lock_seq, 0) + 1
   RETURN ${BRANCH}`,
);

export const countActiveBranchesOfOwner = cypher(
  'countActiveBranchesOfOwner',
  `MATCH (b:Branch {project_id: $projectId, owner_id: $ownerId})
   WHERE b.is_main = false AND b.status = 'active' AND b.deleted_at IS NULL
   RETURN count(b) AS total`,
);

export const findBranchNameClash = cypher(
  'findBranchNameClash',
  `MATCH (b:Branch {project_id: $projectId, owner_id: $ownerId})
   WHERE b.is_main = false AND b.status = 'active' AND b.deleted_at IS NULL
     AND b.name_lower = $nameLower AND b.id <> $excludeId
   RETURN b.id AS id LIMIT 1`,
);

export const listActiveBranchesOfOwner = cypher(
  'listActiveBranchesOfOwner',
  `MATCH (b:Branch {project_id: $projectId, owner_id: $ownerId})
   WHERE b.is_main = false AND b.status = 'active' AND b.deleted_at IS NULL
   RETURN ${BRANCH}
   ORDER BY b.created_at ASC, b.id ASC`,
);

export const renameBranch = cypher(
  'renameBranch',
  `MATCH (b:Branch {id: $id})
   SET b.name = $name, b.name_lower = $nameLower, b.last_active_at = $now
   RETURN ${BRANCH}`,
);

/** A working branch's end: its status, and when it was set (discarded_at / merged_at). */
const endBranch = (name: string, status: 'discarded' | 'merged') =>
  cypher(
    name,
    `MATCH (b:Branch {id: $id})
     SET b.status = '${status}', b.last_active_at = $now, b.${status}_at = $now
     RETURN ${BRANCH}`,
  );

export const markBranchDiscarded = endBranch('markBranchDiscarded', 'discarded');

export const markBranchMerged = endBranch('markBranchMerged', 'merged');

/** Opens ($open true) or ends the review of branch $id (branchReview.ts). */
export const setBranchUnderReview = cypher(
  'setBranchUnderReview',
  `MATCH (b:Branch {id: $id})
   SET b.under_review = $open`,
);
