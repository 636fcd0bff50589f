/**
 * The rebase part of the recorded session. rename-read-step renamed readOrders to
 * fetchOrders while add-order-storage renamed it to readOpenOrders and was merged: its
 * merge conflicts; a rebase without resolutions leaves the conflict; a resolution naming
 * another node is unknown; a dry run previews a value of the owner's own
 * (fetchOpenOrders), then the rebase writes it. add-payments, behind main without
 * conflicts, is rebased with no resolutions. Then the node's history (blame) on the
 * rebased branch and on main. Recorded here: rebaseBranch, mergeBranch's merge_conflict,
 * getNodeHistory and getMainNodeHistory.
 */
import type { Story } from './orderStory';

const RESOLVED_NAME = 'fetchOpenOrders';

export async function recordRebases(story: Story): Promise<void> {
  const { session, owner, reviewer, graph } = story;
  const branch = story.conflicting;
  await session.send(owner, 'POST', `/v1/branches/${branch}/merge`, { expected_version: 1 }, 409, {
    operationId: 'mergeBranch',
    name: 'mergeConflict',
    summary: 'both sides renamed the same node',
    request: false,
  });

  const rebase = `/v1/branches/${branch}/rebase`;
  await session.send(owner, 'POST', rebase, { expected_version: 1 }, 409, {
    operationId: 'rebaseBranch',
    name: 'conflictsLeft',
    summary: 'a rebase without resolutions, one conflict left',
  });
  /** A resolution of the name of `nodeId` changed on both sides, named as the conflict names it. */
  const ofName = (nodeId: string) => ({
    reason: 'modified_on_both',
    entity_kind: 'node',
    entity_id: nodeId,
    field: 'name',
  });
  await session.send(
    owner,
    'POST',
    rebase,
    {
      expected_version: 1,
      resolutions: [{ ...ofName(graph.renderOrders), choice: 'main' }],
    },
    422,
    {
      operationId: 'rebaseBranch',
      name: 'unknownConflict',
      summary: 'a resolution that names no conflict',
    },
  );
  const resolutions = [{ ...ofName(graph.readOrders), choice: 'value', value: RESOLVED_NAME }];
  await session.send(
    owner,
    'POST',
    rebase,
    { expected_version: 1, dry_run: true, resolutions },
    200,
    {
      operationId: 'rebaseBranch',
      name: 'dryRun',
      summary: 'a dry run of the resolution: what the rebase would do, nothing written',
    },
  );
  await session.send(owner, 'POST', rebase, { expected_version: 1, resolutions }, 200, {
    operationId: 'rebaseBranch',
    name: 'resolveARename',
    summary:
      "rebased onto main's current version, the rename both sides made resolved with a value of your own",
  });
  await session.send(
    owner,
    'POST',
    `/v1/branches/${story.behind}/rebase`,
    { expected_version: 1 },
    200,
    {
      operationId: 'rebaseBranch',
      name: 'noConflicts',
      summary: 'a branch behind main catches up (nothing conflicts)',
    },
  );

  await session.send(
    owner,
    'GET',
    `/v1/branches/${branch}/node/${graph.readOrders}/history`,
    undefined,
    200,
    {
      operationId: 'getNodeHistory',
      name: 'renamedOnARebasedBranch',
      summary: "who set each field of a node: the branch's rename and rebase, then main's merges",
    },
  );
  await session.send(
    reviewer,
    'GET',
    `/v1/graph/${story.projectId}/node/${graph.readOrders}/history`,
    undefined,
    200,
    {
      operationId: 'getMainNodeHistory',
      name: 'addedThenRenamedByMerges',
      summary: 'a node added on main by one merge and renamed by the next',
    },
  );
}
