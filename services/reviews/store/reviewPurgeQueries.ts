/**
 * Cypher of the purge of a deleted project's review records (purgeProjectReviews.ts):
 * batched deletes (shared/neo4j/batchedDelete.ts) kept whole in statements/. Reviews and
 * comments name their change request, not the project: they are found through the
 * project's change requests, which therefore go after them.
 */
import { join } from 'node:path';
import { statementsIn } from '../../../shared/neo4j/statementFiles';

const statement = statementsIn(join(__dirname, 'statements'));

/** The comments of the project's change requests, through (change_request_id, ord). */
export const purgeReviewComments = statement('purgeReviewComments');
/** The reviews of the project's change requests, through (change_request_id, ord). */
export const purgeReviews = statement('purgeReviews');
/** The project's change requests, through (project_id, state, created_at). */
export const purgeChangeRequests = statement('purgeChangeRequests');
/** Main's protection rules of the project (one record at most). */
export const purgeMainProtection = statement('purgeMainProtection');
