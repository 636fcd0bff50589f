/**
 * The branches service: a project's branches (main and the working branches forked
 * from it), who may see and change them, and their HTTP routes.
 *
 * - routes: branchRoutes (list, fork, rename, discard), given the graph's usage
 *   counters as ForkContent so this service does not import graph (a fork writes
 *   only its Branch record; main_id on every branch names main for the views);
 * - access: visibleBranch, branchGrant, branchAccessCypher, lockedBranchAccessCypher and
 *   batchWritableCypher (the access row read, the lock taken, or the branch's own checks
 *   of a batch, inside another service's statement),
 *   reviewedBranch (a branch as its change request shows it to every project member),
 *   requireWritable, requireVersion, requireProjectActive, couldWrite (whether a dry run
 *   may take the branch's lock), and requireBranchChangeable (all the checks of a change
 *   to a working branch, on every path that makes one);
 * - main branch: createMainBranch (project creation), loadMainBranch, markBranchMerged
 *   (a merge's end of the working branch), dryRunFork (a fork inside a dry run's
 *   transaction, so a dry run on main never writes main);
 * - presenters: presentBranch, presentBranchRef;
 * - schema: branchSchema (constraints and indexes, run at start-up).
 */
export type { BranchAccessRow, BranchGrant } from './branchAccess';
export {
  batchWritableCypher,
  branchAccessCypher,
  branchGrant,
  couldWrite,
  lockedBranchAccessCypher,
  requireBranchChangeable,
  requireBranchOwner,
  requireProjectActive,
  requireVersion,
  requireWritable,
  reviewedBranch,
  visibleBranch,
} from './branchAccess';
export { markUnderReview } from './branchReview';
export type { DiscardHook } from './discardHook';
export { presentBranch, presentBranchRef } from './branchPresenter';
export type { BranchRecord } from './branchRecord';
export { branchRoutes } from './branchRoutes';
export type { BranchRoutesOptions } from './branchRoutes';
export type { ForkContent } from './forkContent';
export { createMainBranch, dryRunFork, loadMainBranch, markBranchMerged } from './mainBranch';
export { branchSchema } from './store/branchQueries';
