/**
 * The reviews service: the review step before main. Change requests (a working
 * branch's owner asks to merge it), reviews with anchored comments, approvals of a
 * branch version (stale once the branch changes), and main's protection rules.
 *
 * - routes: reviewRoutes (openChangeRequest, listChangeRequests, getChangeRequest,
 *   reviewChangeRequest, getProtectionRules, setProtectionRules);
 * - given to the services below it by the wiring: reviewGate (merge's MergeGate: the
 *   rules every merge into main meets, and the change request marked merged) and
 *   closeOnDiscard (branches' DiscardHook);
 * - purge: purgeProjectReviews, the reviews' part of a deleted project's purge
 *   (services/purge);
 * - schema: reviewsSchema.
 *
 * Reviews sits above merge (a change request shows merge's diff and preview); merge and
 * branches reach it only through the shapes they define.
 */
import { ruleSchema } from './store/ruleQueries';
import { reviewSchema } from './store/reviewQueries';

export { purgeProjectReviews } from './commands/purgeProjectReviews';
export type { ReviewPurgeCounts } from './commands/purgeProjectReviews';
export { closeOnDiscard, reviewGate } from './reviewGate';
export { reviewRoutes } from './reviewRoutes';

export const reviewsSchema = [...reviewSchema, ...ruleSchema];
