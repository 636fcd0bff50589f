/**
 * Branch visibility: main is visible to every member of a visible project; a working branch only to
 * its owner. Anything else is the same 404 as a missing branch.
 */
import {
  ConflictError,
  DomainError,
  NotFoundError,
  VersionConflictError,
} from '../../shared/errors/domainErrors';
import type { Principal } from '../../shared/http/principal';
import type { QueryRunner } from '../../shared/neo4j/namedQuery';
import {
  projectGrant,
  ProjectGrant,
  ProjectRecord,
  requireRole,
  requireScope,
  Role,
} from '../identity';
import type { BranchRecord } from './branchRecord';
import {
  BRANCH_ACCESS,
  findBranchWithAccess,
  LOCK_BRANCH,
  lockBranchWithAccess,
} from './store/branchQueries';

export interface BranchGrant extends ProjectGrant {
  branch: BranchRecord;
}

/**
 * Loads a visible branch. With `lock`, the branch's write lock is taken first and
 * held until the transaction ends (compare versions only under the lock).
 */
export async function visibleBranch(
  tx: QueryRunner,
  principal: Principal,
  branchId: string,
  options: { lock?: boolean } = {},
): Promise<BranchGrant> {
  const row = await tx.one<BranchAccessRow & Record<string, unknown>>(
    options.lock ? lockBranchWithAccess : findBranchWithAccess,
    { id: branchId, userId: principal.userId },
  );
  return branchGrant(principal, row);
}

/**
 * A branch the caller owns, for the owner-only routes (branch PATCH and DELETE): a branch the
 * caller can see but does not own, main included for a member who is not the project's owner, is
 * the same 404 as a missing one.
 */
export async function ownedBranch(
  tx: QueryRunner,
  principal: Principal,
  branchId: string,
  options: { lock?: boolean } = {},
): Promise<BranchGrant> {
  const grant = await visibleBranch(tx, principal, branchId, options);
  if (grant.branch.owner_id !== principal.userId) throw new NotFoundError('branch');
  return grant;
}

/**
 * A working branch as its change request shows it to every member of its project
 * (reviews: a change request's diff and merge preview). A member who is not its owner
 * sees the branch only this way, after the reviews service has found its change request;
 * anything else about the branch stays the owner's. Not a member: the 404 of a missing
 * branch.
 */
export async function reviewedBranch(
  tx: QueryRunner,
  principal: Principal,
  branchId: string,
): Promise<BranchGrant> {
  const row = await tx.one<BranchAccessRow & Record<string, unknown>>(findBranchWithAccess, {
    id: branchId,
    userId: principal.userId,
  });
  const grant = row ? projectGrant(principal, row.project, row.role) : null;
  if (!row || !grant) throw new NotFoundError('branch');
  return { ...grant, branch: row.branch };
}

/** A branch with its project and the caller's role, as branchAccessCypher() reads them. */
export interface BranchAccessRow {
  branch: BranchRecord;
  project: ProjectRecord | null;
  role: Role | null;
}

/**
 * The Cypher clause that reads a branch's access row, for a read of another service
 * that answers in one statement together with the caller's access (graph's scoped
 * reads: one round trip per read). It follows a clause that binds the branch as `b`,
 * reads the caller from the parameter $userId, and binds the branch's live project
 * `p` and the caller's membership `m`; the statement then returns
 * `b {.*} AS branch, p {.*} AS project, m.role AS role`, the BranchAccessRow that
 * branchGrant() checks. It is a function of this service, not a copy in the reader's
 * store, because which project and membership make a branch visible is this
 * service's rule: written once, next to branchGrant(), which interprets the row.
 */
export function branchAccessCypher(): string {
  return BRANCH_ACCESS;
}

/**
 * The Cypher that takes the write lock of branch $id and reads its access row, for a
 * write of another service that reads what it needs in the same statement (graph's
 * applyDeltas: the lock and what a batch's additions need, one statement). It binds `b`
 * (locked), `p` and `m` as branchAccessCypher() does, and reads the caller from $userId;
 * the statement returns `b {.*} AS branch, p {.*} AS project, m.role AS role` for
 * branchGrant(), and no row when there is no such branch. How a branch is locked is
 * this service's rule, as visibleBranch(..., { lock: true }) applies it.
 */
export function lockedBranchAccessCypher(): string {
  return `${LOCK_BRANCH}
   ${BRANCH_ACCESS}`;
}

/**
 * The Cypher condition, on the branch bound to `b`, under which a batch of caller $userId
 * expecting version $expectedVersion passes this service's checks of the branch itself:
 * only its owner changes a working branch (requireBranchOwner), requireWritable refuses main and
 * a branch that is not active, requireVersion any other version. For a write of another
 * service that acts in the statement that takes the lock and must roll back when a check
 * then refuses (graph's applyDeltas writes a batch's leading additions there); the role,
 * scopes and project are still checked after it.
 */
export function batchWritableCypher(b: string): string {
  return `${b}.owner_id = $userId AND NOT ${b}.is_main AND ${b}.status = 'active'
          AND ${b}.version = $expectedVersion`;
}

/**
 * The grant of a visible branch, or the 404 of a missing one (also when `row` is absent):
 * main to every member, a working branch to its owner, and to every member while it is
 * under review (branchReview.ts).
 */
export function branchGrant(principal: Principal, row: BranchAccessRow | undefined): BranchGrant {
  const grant = row ? projectGrant(principal, row.project, row.role) : null;
  if (!row || !grant) throw new NotFoundError('branch');
  if (!row.branch.is_main && row.branch.owner_id !== principal.userId && !row.branch.under_review)
    throw new NotFoundError('branch');
  return { ...grant, branch: row.branch };
}

/**
 * Only its owner changes a working branch, even while members may read it under review
 * (branchReview.ts): anyone else gets the 404 of a branch they may not change, as before
 * it was shown to them. Main is not owned; requireWritable refuses changing it.
 */
export function requireBranchOwner(principal: Principal, branch: BranchRecord): void {
  if (!branch.is_main && branch.owner_id !== principal.userId) throw new NotFoundError('branch');
}

/** 409 main_not_writable / branch_not_active. */
export function requireWritable(branch: BranchRecord): void {
  if (branch.is_main) {
    throw new ConflictError(
      'main_not_writable',
      'main is merge-only and cannot be changed directly',
    );
  }
  if (branch.status !== 'active') {
    throw new ConflictError('branch_not_active', `the branch is ${branch.status}`);
  }
}

/**
 * Whether the caller could change this branch with a batch (requireBranchChangeable's
 * checks, asked without refusing). A dry run takes the branch's write lock only for such a
 * caller: a read-only one must never make a writer wait.
 */
export function couldWrite(principal: Principal, grant: BranchGrant): boolean {
  try {
    requireBranchChangeable(principal, grant, grant.branch);
    return true;
  } catch (error) {
    if (error instanceof DomainError) return false;
    throw error;
  }
}

/**
 * What every change of a working branch checks, on each path that changes one (rename,
 * discard, merge, and a staged merge's publishing, which runs long after the request's
 * first check): scope graph:write (403), the editor role now (403 forbidden: a member
 * demoted to viewer still sees the branch), a branch that is not main and still active
 * (409), and a project that is not archived (409 project_archived). Read under the
 * branch's lock, so an archive or a merge in between has committed by then.
 */
export function requireBranchChangeable(
  principal: Principal,
  grant: ProjectGrant,
  branch: BranchRecord,
): void {
  requireBranchOwner(principal, branch);
  requireScope(principal, 'graph:write');
  requireRole(grant, 'editor');
  requireWritable(branch);
  requireProjectActive(grant);
}

/** 409 version_conflict with current_version. */
export function requireVersion(branch: BranchRecord, expected: number): void {
  if (branch.version !== expected) throw new VersionConflictError(branch.version);
}

/** 409 project_archived: archived projects are read-only. */
export function requireProjectActive(grant: ProjectGrant): void {
  if (grant.project.archived) {
    throw new ConflictError('project_archived', 'the project is archived and read-only');
  }
}
