/** Cypher of the reviews service: change requests, reviews and their comments. */
import { cypher } from '../../../shared/neo4j/namedQuery';
import { optionalStateOf } from '../../graph';

export const reviewSchema = [
  cypher(
    'changeRequestIdUnique',
    'CREATE CONSTRAINT change_request_id IF NOT EXISTS FOR (c:ChangeRequest) REQUIRE c.id IS UNIQUE',
  ),
  // at most one open change request per branch: only an open one carries open_branch_id
  cypher(
    'changeRequestOpenBranchUnique',
    `CREATE CONSTRAINT change_request_open_branch IF NOT EXISTS
     FOR (c:ChangeRequest) REQUIRE c.open_branch_id IS UNIQUE`,
  ),
  cypher(
    'changeRequestProjectIndex',
    `CREATE INDEX change_request_project IF NOT EXISTS
     FOR (c:ChangeRequest) ON (c.project_id, c.state, c.created_at)`,
  ),
  cypher(
    'reviewOrderIndex',
    'CREATE INDEX review_order IF NOT EXISTS FOR (r:Review) ON (r.change_request_id, r.ord)',
  ),
  cypher(
    'reviewCommentOrderIndex',
    `CREATE INDEX review_comment_order IF NOT EXISTS
     FOR (c:ReviewComment) ON (c.change_request_id, c.ord)`,
  ),
  cypher(
    'reviewCommentIdUnique',
    'CREATE CONSTRAINT review_comment_id IF NOT EXISTS FOR (c:ReviewComment) REQUIRE c.id IS UNIQUE',
  ),
];

const CR = 'c {.*} AS changeRequest';

export const createChangeRequest = cypher(
  'createChangeRequest',
  `CREATE (c:ChangeRequest {id: $id, project_id: $projectId, branch_id: $branchId,
                            owner_id: $ownerId, title: $title, description: $description,
                            state: 'open', open_branch_id: $branchId, reviews: 0,
                            comments: 0, created_at: $now, updated_at: $now,
                            merged_at: null, closed_at: null})
   RETURN ${CR}`,
);

/** The open change request of branch $branchId, if any. */
export const findOpenOfBranch = cypher(
  'findOpenChangeRequestOfBranch',
  `MATCH (c:ChangeRequest {open_branch_id: $branchId})
   RETURN ${CR}`,
);

/**
 * Change request $id, or no row. Its properties are read once, then the row is kept only
 * when they name a project: a change request being purged (its project deleted) may be
 * matched and then read after the purge removed it, with no properties left, and it is
 * then as missing (404), not a request without a project.
 */
export const findChangeRequest = cypher(
  'findChangeRequest',
  `MATCH (c:ChangeRequest {id: $id})
   WITH c {.*} AS changeRequest
     WHERE changeRequest.project_id IS NOT NULL
   RETURN changeRequest`,
);

/**
 * Change request $id under its write lock (held until commit), read after the lock: a
 * review and a merge or discard that ends it serialize here, so no review is added to
 * a change request that has just been merged or closed.
 */
export const lockChangeRequest = cypher(
  'lockChangeRequest',
  `MATCH (c:ChangeRequest {id: $id})
   SET c.lock_seq = coalesce(c.lock_seq, 0) + 1
   RETURN ${CR}`,
);

/** Ends the open change request of branch $branchId: state $state (merged or closed). */
export const endOpenOfBranch = cypher(
  'endOpenChangeRequestOfBranch',
  `MATCH (c:ChangeRequest {open_branch_id: $branchId})
   SET c.state = $state, c.updated_at = $now, c.open_branch_id = null,
       c.merged_at = CASE WHEN $state = 'merged' THEN $now ELSE null END,
       c.closed_at = CASE WHEN $state = 'closed' THEN $now ELSE null END
   RETURN ${CR}`,
);

/** A page of project $projectId's change requests in $state, newest first. */
export const listChangeRequestsPage = cypher(
  'listChangeRequestsPage',
  `MATCH (c:ChangeRequest)
   WHERE c.project_id = $projectId AND c.state = $state
   OPTIONAL MATCH (b:Branch {id: c.branch_id})
   RETURN ${CR}, b.name AS branchName
   ORDER BY c.created_at DESC, c.id DESC
   SKIP toInteger($offset) LIMIT toInteger($limit) + 1`,
);

export const branchNameOf = cypher(
  'changeRequestBranchName',
  `MATCH (b:Branch {id: $branchId}) RETURN b.name AS name`,
);

/**
 * Adds review $review (its ord the change request's next) with its comments $comments
 * (each with its ord), on change request $crId, which the caller has locked.
 */
export const addReview = cypher(
  'addReview',
  `MATCH (c:ChangeRequest {id: $crId})
   SET c.reviews = c.reviews + 1, c.comments = c.comments + size($comments),
       c.updated_at = $now
   CREATE (r:Review {id: $review.id, change_request_id: $crId, reviewer_id: $review.reviewerId,
                     verdict: $review.verdict, body: $review.body,
                     branch_version: toInteger($review.branchVersion), ord: c.reviews,
                     created_at: $now})
   WITH c, r
   CALL (c, r) {
     UNWIND range(0, size($comments) - 1) AS i
     WITH c, r, i, $comments[i] AS m
     CREATE (:ReviewComment {id: m.id, review_id: r.id, change_request_id: c.id,
                             ord: c.comments - size($comments) + i + 1, body: m.body,
                             anchor_kind: m.anchorKind, anchor_id: m.anchorId,
                             anchor_version: toInteger(m.anchorVersion),
                             anchor_name: m.anchorName, in_reply_to: m.inReplyTo,
                             created_at: $now})
   }
   RETURN ${CR}, r {.*} AS review`,
);

/** The reviews of change request $crId in order, each with its comments in order. */
export const reviewsOf = cypher(
  'reviewsOfChangeRequest',
  `MATCH (r:Review)
   WHERE r.change_request_id = $crId AND r.ord > 0
   CALL (r) {
     OPTIONAL MATCH (m:ReviewComment)
     WHERE m.change_request_id = r.change_request_id AND m.review_id = r.id
     WITH m ORDER BY m.ord
     RETURN collect(m {.*}) AS comments
   }
   RETURN r {.*} AS review, comments
   ORDER BY r.ord`,
);

/** The latest verdict (approve or request_changes) of each reviewer of $crId. */
export const latestVerdicts = cypher(
  'latestVerdictsOfChangeRequest',
  `MATCH (r:Review)
   WHERE r.change_request_id = $crId AND r.ord > 0
     AND r.verdict IN ['approve', 'request_changes']
   WITH r ORDER BY r.ord DESC
   WITH r.reviewer_id AS reviewer, collect(r)[0] AS last
   RETURN reviewer, last.verdict AS verdict, last.branch_version AS branchVersion`,
);

export const findComment = cypher(
  'findReviewComment',
  `MATCH (m:ReviewComment {id: $id}) RETURN m.change_request_id AS changeRequestId`,
);

/** What node $id was called in $view (no row's name: not there). */
export const nodeNameAt = cypher(
  'anchorNodeName',
  `${optionalStateOf('n', 'GNode', '$id')}
   RETURN n.name AS name, n IS NOT NULL AS found`,
);

/** What port $id was called in $view, as `node.port`. */
export const portNameAt = cypher(
  'anchorPortName',
  `${optionalStateOf('p', 'Port', '$id')}
   WITH p
   ${optionalStateOf('n', 'GNode', 'p.node_id')}
   RETURN coalesce(n.name, '?') + '.' + p.name AS name, p IS NOT NULL AS found`,
);

/** Edge $id in $view, as `node.port -> node.port` (a dangling end shown as `?`). */
export const edgeNameAt = cypher(
  'anchorEdgeName',
  `${optionalStateOf('e', 'Edge', '$id')}
   WITH e
   ${optionalStateOf('sp', 'Port', 'e.source_handle')}
   WITH e, sp
   ${optionalStateOf('sn', 'GNode', 'sp.node_id')}
   WITH e, sp, sn
   ${optionalStateOf('tp', 'Port', 'e.target_handle')}
   WITH e, sp, sn, tp
   ${optionalStateOf('tn', 'GNode', 'tp.node_id')}
   RETURN coalesce(sn.name + '.' + sp.name, '?') + ' -> ' + coalesce(tn.name + '.' + tp.name, '?')
            AS name,
          e IS NOT NULL AS found`,
);
