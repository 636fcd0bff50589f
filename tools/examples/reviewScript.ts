/**
 * The review step of the recorded session, on the branch add-order-storage: the owner
 * opens a change request; the reviewer (an editor) lists it, comments anchored to a node
 * at a version, the owner replies, the reviewer requests changes; the owner renames the
 * node, the merge is blocked by main's protection rules (no approval of the current
 * version), the reviewer approves and reads the change request, and the merge goes
 * through (after a stale expected_version is refused). Recorded here: openChangeRequest,
 * listChangeRequests, reviewChangeRequest, getChangeRequest and mergeBranch, with their
 * refusals.
 */
import type { Story } from './orderStory';
import { rename } from './orderStory';

export async function recordReviews(story: Story): Promise<void> {
  const { session, owner, reviewer, graph } = story;
  const branch = story.reviewed;
  const request = {
    title: 'Store orders',
    description: 'Adds storeOrders and wires readOrders to it.',
  };
  const opened = await session.send<{ change_request: { id: string } }>(
    owner,
    'POST',
    `/v1/branches/${branch}/change-request`,
    request,
    201,
    {
      operationId: 'openChangeRequest',
      name: 'opened',
      summary: 'the owner asks for review of add-order-storage',
    },
  );
  await session.send(owner, 'POST', `/v1/branches/${branch}/change-request`, request, 409, {
    operationId: 'openChangeRequest',
    name: 'alreadyOpen',
    summary: 'the branch already has an open change request',
    request: false,
  });
  await session.send(
    reviewer,
    'GET',
    `/v1/projects/${story.projectId}/change-requests`,
    undefined,
    200,
    {
      operationId: 'listChangeRequests',
      name: 'oneOpen',
      summary: "the project's open change request, as a reviewer lists it",
    },
  );

  const reviews = `/v1/change-requests/${opened.body.change_request.id}/reviews`;
  const comment = await session.send<{ review: { comments: { id: string }[] } }>(
    reviewer,
    'POST',
    reviews,
    {
      verdict: 'comment',
      comments: [
        {
          body: 'Does this read every order of the customer, or only the open ones?',
          anchor: { kind: 'node', id: graph.readOrders, version: 1 },
        },
      ],
    },
    201,
    {
      operationId: 'reviewChangeRequest',
      name: 'anchoredComment',
      summary: 'a comment on a node of the branch at version 1',
    },
  );
  await session.send(
    owner,
    'POST',
    reviews,
    {
      verdict: 'comment',
      comments: [
        {
          body: 'Only the open ones; I will rename it.',
          in_reply_to: comment.body.review.comments[0].id,
        },
      ],
    },
    201,
    {
      operationId: 'reviewChangeRequest',
      name: 'reply',
      summary: "the branch's owner replies to the comment",
    },
  );
  await session.send(
    reviewer,
    'POST',
    reviews,
    {
      verdict: 'request_changes',
      body: 'Please name readOrders for what it reads before this is merged.',
    },
    201,
    {
      operationId: 'reviewChangeRequest',
      name: 'requestChanges',
      summary: 'the reviewer requests changes',
    },
  );
  await session.send(
    reviewer,
    'POST',
    reviews,
    {
      verdict: 'comment',
      comments: [{ body: 'And this one?', anchor: { kind: 'node', id: story.paymentsNode } }],
    },
    422,
    {
      operationId: 'reviewChangeRequest',
      name: 'anchorNotFound',
      summary: 'an anchor on a node the branch does not have (it is on another branch)',
    },
  );

  await session.send(
    owner,
    'POST',
    `/v1/branches/${branch}/deltas`,
    { expected_version: 1, deltas: [rename(graph.readOrders, 'readOpenOrders')] },
    200,
  );
  const merge = `/v1/branches/${branch}/merge`;
  await session.send(owner, 'POST', merge, { expected_version: 2 }, 409, {
    operationId: 'mergeBranch',
    name: 'mergeBlocked',
    summary: "main's protection rules are not met: no approval of the branch's current version",
    request: false,
  });
  await session.send(
    reviewer,
    'POST',
    reviews,
    { verdict: 'approve', body: 'Looks right now.' },
    201,
    {
      operationId: 'reviewChangeRequest',
      name: 'approve',
      summary: "an approval of the branch's current version",
    },
  );
  await session.send(
    reviewer,
    'GET',
    `/v1/change-requests/${opened.body.change_request.id}`,
    undefined,
    200,
    {
      operationId: 'getChangeRequest',
      name: 'approved',
      summary: 'approved at the current version, every rule met, as the reviewer reads it',
    },
  );
  await session.send(owner, 'POST', merge, { expected_version: 1 }, 409, {
    operationId: 'mergeBranch',
    name: 'versionConflict',
    summary: 'the branch moved since you read it',
  });
  await session.send(owner, 'POST', merge, { expected_version: 2 }, 200, {
    operationId: 'mergeBranch',
    name: 'merged',
    summary: 'the approved branch merged; its change request becomes merged',
  });
  await session.send(owner, 'POST', merge, { expected_version: 2 }, 409, {
    operationId: 'mergeBranch',
    name: 'branchNotActive',
    summary: 'the branch is already merged',
    request: false,
  });
  await session.send(reviewer, 'POST', reviews, { verdict: 'approve' }, 409, {
    operationId: 'reviewChangeRequest',
    name: 'notOpen',
    summary: 'the change request was merged',
    request: false,
  });
}
