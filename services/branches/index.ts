/**
 * The branches service's public entry point: everything other services and processes use of it.
 */
export type { BranchAccessRow } from './branchAccess';
export {
  branchGrant,
  requireProjectActive,
  requireVersion,
  requireWritable,
  visibleBranch,
} from './branchAccess';
export { presentBranch, presentBranchRef } from './branchPresenter';
export type { BranchRecord } from './branchRecord';
export { branchRoutes } from './branchRoutes';
export type { BranchRoutesOptions } from './branchRoutes';
export type { ForkContent } from './forkContent';
export { createMainBranch, loadMainBranch } from './mainBranch';
export { BRANCH_ACCESS, branchSchema } from './store/branchQueries';
