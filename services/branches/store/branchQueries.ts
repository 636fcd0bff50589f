/** Cypher of the branches service. */
import { join } from 'node:path';
import { statementsIn } from '../../../shared/neo4j/statementFiles';
import { cypher } from '../../../shared/neo4j/namedQuery';

const statement = statementsIn(join(__dirname, 'statements'));

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

export const createBranch = statement('createBranch');

/**
 * Binds branch `b`'s live project `p` and the caller's ($userId) membership `m`.
 * Reads that answer in one statement start with it and return
 * `b {.*} AS branch, p {.*} AS project, m.role AS role` for branchGrant(). The definition
 * every statement that reads the access row holds (this store's findBranchWithAccess and
 * lockBranchWithAccess: branchStatements.spec.ts; graph's through branchAccess.ts).
 */
export const BRANCH_ACCESS = `WITH b
   OPTIONAL MATCH (p:Project {id: b.project_id}) WHERE p.deleted_at IS NULL
   OPTIONAL MATCH (:User {id: $userId})-[m:MEMBER_OF]->(p)`;

/** A branch with its project and the caller's role, in one round trip. */
export const findBranchWithAccess = statement('findBranchWithAccess');

/**
 * Binds the live branch $id as `b` under its exclusive write lock (held until commit):
 * every compare-then-write on a branch's version starts here, so concurrent writers
 * serialize and exactly one of them sees the version it expected.
 */
export const LOCK_BRANCH = `MATCH (b:Branch {id: $id}) WHERE b.deleted_at IS NULL
   SET b.lock_seq = coalesce(b.lock_seq, 0) + 1`;

/** findBranchWithAccess under the branch's write lock (LOCK_BRANCH). */
export const lockBranchWithAccess = statement('lockBranchWithAccess');

export const findMainBranch = statement('findMainBranch');

/**
 * A working branch of main $mainId forked at main's version $baseMainVersion, for one
 * dry run's transaction only (it is always rolled back, so no one else ever sees it): its
 * line takes the dry run's writes, so main's own records are read, never written or
 * locked. Its findings are kept as a fork's are (createBranch).
 */
export const createDryRunFork = statement('createDryRunFork');

/** Main under its write lock: forks and merges of a project serialize on it. */
export const lockMainBranchOf = statement('lockMainBranchOf');

export const countActiveBranchesOfOwner = statement('countActiveBranchesOfOwner');

export const findBranchNameClash = statement('findBranchNameClash');

export const listActiveBranchesOfOwner = statement('listActiveBranchesOfOwner');

export const renameBranch = statement('renameBranch');

/** A working branch's end: its status, and when it was set (discarded_at / merged_at). */
export const markBranchDiscarded = statement('markBranchDiscarded');

export const markBranchMerged = statement('markBranchMerged');

/** Opens ($open true) or ends the review of branch $id (branchReview.ts). */
export const setBranchUnderReview = statement('setBranchUnderReview');
