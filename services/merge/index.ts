/**
 * The merge service: a working branch's changes against main (diff, change trail,
 * merge preview) and its merge into main (fast-forward or replay).
 *
 * - routes: mergeRoutes (mergeBranch, getMergePreview, getBranchDiff, getMainDiff,
 *   listBranchChanges), given main's protection rules as a MergeGate (the reviews
 *   service implements it; merge does not import reviews);
 * - for a change request's readers (reviews): diffForReview, previewForReview and their
 *   presenters, which read a branch its change request shows to every project member;
 * - jobs: sweepMergeStagings (the worker's sweep removes stagings of large merges whose
 *   lease ran out).
 */
export { mergeRoutes } from './mergeRoutes';
export type { MergeRoutesOptions } from './mergeRoutes';
export { diffForReview } from './commands/diffBranch';
export { previewForReview } from './commands/previewMerge';
export type { MergePreview } from './commands/previewMerge';
export { presentDiff, presentPreview } from './mergePresenter';
export type { GateInput, MergeGate, RuleCheck, RuleName } from './mergeGate';
export { sweepMergeStagings } from './stagedMerge';
