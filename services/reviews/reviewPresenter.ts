/** Maps change requests, reviews and comments to their API shapes, field by field. */
import type { components } from '../../shared/api/openapi.generated';
import { isStale } from './approvals';
import type { ChangeRequestRecord, CommentRecord, ReviewRecord } from './changeRequestRecord';

type Schemas = components['schemas'];

export function presentChangeRequest(
  cr: ChangeRequestRecord,
  branchName: string,
): Schemas['ChangeRequest'] {
  return {
    id: cr.id,
    project_id: cr.project_id,
    branch_id: cr.branch_id,
    branch_name: branchName,
    owner_id: cr.owner_id,
    title: cr.title,
    description: cr.description ?? null,
    state: cr.state,
    created_at: cr.created_at,
    updated_at: cr.updated_at,
    merged_at: cr.merged_at ?? null,
    closed_at: cr.closed_at ?? null,
  };
}

export function presentComment(comment: CommentRecord): Schemas['ReviewComment'] {
  const anchored = comment.anchor_kind !== null && comment.anchor_kind !== undefined;
  return {
    id: comment.id,
    body: comment.body,
    anchor: anchored
      ? {
          kind: comment.anchor_kind as 'node' | 'port' | 'edge',
          id: comment.anchor_id as string,
          version: comment.anchor_version as number,
          name: comment.anchor_name ?? '',
        }
      : null,
    in_reply_to: comment.in_reply_to ?? null,
    created_at: comment.created_at,
  };
}

export function presentReview(
  review: ReviewRecord,
  comments: CommentRecord[],
  branchVersion: number,
): Schemas['Review'] {
  return {
    id: review.id,
    change_request_id: review.change_request_id,
    reviewer_id: review.reviewer_id,
    verdict: review.verdict,
    body: review.body ?? null,
    branch_version: review.branch_version,
    stale: isStale(review.branch_version, branchVersion),
    comments: comments.map(presentComment),
    created_at: review.created_at,
  };
}
