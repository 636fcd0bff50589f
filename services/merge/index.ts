/**
 * The merge service: a working branch's changes against main (diff, change trail,
 * merge preview) and its merge into main (fast-forward or replay).
 *
 * - routes: mergeRoutes (mergeBranch, getMergePreview, getBranchDiff, getMainDiff,
 *   listBranchChanges);
 * - jobs: sweepMergeStagings (the worker's sweep removes stagings of large merges whose
 *   lease ran out).
 */
export { mergeRoutes } from './mergeRoutes';
export { sweepMergeStagings } from './stagedMerge';
