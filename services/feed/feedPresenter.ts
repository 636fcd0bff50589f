/** Maps a stored feed event to FeedEvent, field by field (the audience is not shown). */
import type { components } from '../../shared/api/openapi.generated';
import type { FeedEventRecord } from './feedEvent';

export function presentEvent(event: FeedEventRecord): components['schemas']['FeedEvent'] {
  return {
    seq: event.seq,
    kind: event.kind,
    project_id: event.project_id,
    branch_id: event.branch_id ?? null,
    branch_version: event.branch_version ?? null,
    change_request_id: event.change_request_id ?? null,
    review_id: event.review_id ?? null,
    verdict: event.verdict ?? null,
    actor_id: event.actor_id,
    created_at: event.created_at,
  };
}
