/**
 * reviewChangeRequest (POST /v1/change-requests/{id}/reviews): a member reviews an open
 * change request. Who may do what (the roles of the API document):
 *
 * - comment: any member (viewer, editor, owner), the branch's owner included, to reply;
 * - approve, request_changes: the editor role or above, never the branch's owner (403
 *   own_change_request: nobody approves their own work);
 * - every review needs graph:write (it writes), and a project that is not archived.
 *
 * The change request's write lock is taken before its state is read, so a review and
 * the merge or discard that ends the request serialize (409 change_request_not_open
 * after it). The review is of the branch's version as read now: a batch committed after
 * it makes the approval stale, which is what an approval of a version means. Anchors are
 * resolved at their version (anchors.ts). The feed's change_request_reviewed event is
 * written in the same transaction.
 */
import { randomUUID } from 'node:crypto';
import {
  ConflictError,
  ForbiddenError,
  InvalidInputError,
} from '../../../shared/errors/domainErrors';
import { bodyObject } from '../../../shared/http/operation';
import type { Principal } from '../../../shared/http/principal';
import type { ServiceContext } from '../../../shared/http/serviceContext';
import { nowTimestamp } from '../../../shared/http/timestamps';
import type { QueryRunner } from '../../../shared/neo4j/namedQuery';
import { requireProjectActive, reviewedBranch } from '../../branches';
import type { BranchRecord } from '../../branches';
import { recordEvent } from '../../feed';
import type { Verdict } from '../../feed';
import { requireRole, requireScope } from '../../identity';
import { Anchor, AnchorKind, resolveAnchor } from '../anchors';
import { ChangeRequestRecord, optionalText, ReviewRecord, TEXT_MAX } from '../changeRequestRecord';
import { addReview, findComment, lockChangeRequest } from '../store/reviewQueries';
import { visibleChangeRequest } from './readChangeRequest';

export interface AddedReview {
  changeRequest: ChangeRequestRecord;
  branchName: string;
  review: ReviewRecord;
  comments: CommentInput[];
}

interface CommentInput {
  id: string;
  body: string;
  anchor: Anchor | null;
  inReplyTo: string | null;
}

/** Who may give `verdict`: see the header. */
function requireMayGive(
  principal: Principal,
  grant: Parameters<typeof requireRole>[0],
  cr: ChangeRequestRecord,
  verdict: Verdict,
): void {
  requireScope(principal, 'graph:write');
  if (verdict === 'comment') return;
  requireRole(grant, 'editor');
  if (cr.owner_id === principal.userId) {
    throw new ForbiddenError(
      'own_change_request',
      "the branch's owner cannot approve or request changes on their own change request",
    );
  }
}

/** The comments of the body, each anchor resolved and each reply checked. */
async function parseComments(
  tx: QueryRunner,
  cr: ChangeRequestRecord,
  branch: BranchRecord,
  raw: unknown,
): Promise<CommentInput[]> {
  const list = Array.isArray(raw) ? raw : [];
  const comments: CommentInput[] = [];
  for (const [i, item] of list.entries()) {
    const fields = bodyObject(item);
    const body = optionalText(fields.body, ['body', 'comments', i, 'body']);
    if (body === null) {
      throw new InvalidInputError(
        'comment_empty',
        `comments[${i}].body: a comment needs a text of 1 to ${TEXT_MAX} characters`,
      );
    }
    const anchorFields = fields.anchor === null ? null : bodyObject(fields.anchor);
    const anchor =
      anchorFields && typeof anchorFields.kind === 'string'
        ? await resolveAnchor(tx, branch, {
            kind: anchorFields.kind as AnchorKind,
            id: String(anchorFields.id),
            version: typeof anchorFields.version === 'number' ? anchorFields.version : undefined,
          })
        : null;
    const inReplyTo = typeof fields.in_reply_to === 'string' ? fields.in_reply_to : null;
    if (inReplyTo !== null) {
      const target = await tx.one<{ changeRequestId: string }>(findComment, { id: inReplyTo });
      if (target?.changeRequestId !== cr.id) {
        throw new InvalidInputError(
          'reply_not_found',
          `comments[${i}].in_reply_to names no comment of this change request`,
        );
      }
    }
    comments.push({ id: randomUUID(), body, anchor, inReplyTo });
  }
  return comments;
}

export async function reviewChangeRequest(
  ctx: ServiceContext,
  principal: Principal,
  id: string,
  rawBody: unknown,
): Promise<AddedReview> {
  const body = bodyObject(rawBody);
  const verdict = body.verdict as Verdict;
  return ctx.executor.writeTx(async (tx) => {
    const seen = await visibleChangeRequest(tx, principal, id);
    requireMayGive(principal, seen.grant, seen.changeRequest, verdict);
    // under the change request's lock: a merge or discard that ended it has committed
    const { changeRequest: cr } = await visibleChangeRequest(tx, principal, id, lockChangeRequest);
    if (cr.state !== 'open')
      throw new ConflictError('change_request_not_open', `the change request is ${cr.state}`);
    requireProjectActive(seen.grant);
    const { branch } = await reviewedBranch(tx, principal, cr.branch_id);
    const text = optionalText(body.body, ['body', 'body']);
    const comments = await parseComments(tx, cr, branch, body.comments);
    const now = nowTimestamp();
    const row = await tx.one<{ changeRequest: ChangeRequestRecord; review: ReviewRecord }>(
      addReview,
      {
        crId: cr.id,
        now,
        review: {
          id: randomUUID(),
          reviewerId: principal.userId,
          verdict,
          body: text,
          branchVersion: branch.version,
        },
        comments: comments.map((c) => ({
          id: c.id,
          body: c.body,
          anchorKind: c.anchor?.kind ?? null,
          anchorId: c.anchor?.id ?? null,
          anchorVersion: c.anchor?.version ?? null,
          anchorName: c.anchor?.name ?? null,
          inReplyTo: c.inReplyTo,
        })),
      },
    );
    if (!row) throw new Error('the review was not recorded');
    await recordEvent(tx, {
      projectId: cr.project_id,
      kind: 'change_request_reviewed',
      actorId: principal.userId,
      now,
      branchId: branch.id,
      branchVersion: branch.version,
      changeRequestId: cr.id,
      reviewId: row.review.id,
      verdict,
    });
    return {
      changeRequest: row.changeRequest,
      branchName: branch.name,
      review: row.review,
      comments,
    };
  });
}
