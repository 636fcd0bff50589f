/**
 * The merge service: a working branch's changes against main (diff, change trail,
 * merge preview) and its merge into main (fast-forward or replay).
 *
 * - routes: mergeRoutes.
 */
export { mergeRoutes } from './mergeRoutes';
