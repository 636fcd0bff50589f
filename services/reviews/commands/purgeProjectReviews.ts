/**
 * The reviews' part of the purge of a deleted project (services/purge calls it, for a
 * project it has found deleted, before it removes the project node): the comments and
 * reviews of its change requests, the change requests, and main's protection rules, in
 * batches. A purge cut short leaves the change requests last, so a rerun still finds
 * their reviews and comments through them. Idempotent: a rerun finds nothing.
 */
import { countDeleted } from '../../../shared/neo4j/batchedDelete';
import type { Executor } from '../../../shared/neo4j/executor';
import {
  purgeChangeRequests,
  purgeMainProtection,
  purgeReviewComments,
  purgeReviews,
} from '../store/reviewPurgeQueries';

export interface ReviewPurgeCounts {
  reviewComments: number;
  reviews: number;
  changeRequests: number;
  protectionRules: number;
}

export async function purgeProjectReviews(
  executor: Executor,
  projectId: string,
): Promise<ReviewPurgeCounts> {
  const reviewComments = await countDeleted(executor, purgeReviewComments, { projectId });
  const reviews = await countDeleted(executor, purgeReviews, { projectId });
  const changeRequests = await countDeleted(executor, purgeChangeRequests, { projectId });
  const protectionRules = await countDeleted(executor, purgeMainProtection, { projectId });
  return { reviewComments, reviews, changeRequests, protectionRules };
}
