/**
 * What the reviews service gives the services below it, wired by hand
 * (services/platform/operationHandlers.ts): merge's MergeGate (main's protection rules;
 * a merge marks the branch's open change request merged) and branches' DiscardHook (a
 * discard closes it). Each ends the open change request in the transaction of the merge
 * or discard, with the feed's event.
 */
import type { QueryRunner } from '../../shared/neo4j/namedQuery';
import { markUnderReview } from '../branches';
import type { BranchRecord, DiscardHook } from '../branches';
import { recordEvent } from '../feed';
import type { MergeGate } from '../merge';
import type { ChangeRequestRecord } from './changeRequestRecord';
import { checkRules } from './protectionRules';
import { endOpenOfBranch } from './store/reviewQueries';

async function endOpen(
  tx: QueryRunner,
  input: { branch: BranchRecord; actorId: string; now: string },
  state: 'merged' | 'closed',
): Promise<void> {
  const { branch, actorId, now } = input;
  const row = await tx.one<{ changeRequest: ChangeRequestRecord }>(endOpenOfBranch, {
    branchId: branch.id,
    state,
    now,
  });
  if (!row) return;
  await markUnderReview(tx, branch.id, false);
  await recordEvent(tx, {
    projectId: branch.project_id,
    kind: state === 'merged' ? 'change_request_merged' : 'change_request_closed',
    actorId,
    now,
    branchId: branch.id,
    branchVersion: branch.version,
    changeRequestId: row.changeRequest.id,
  });
}

export const reviewGate: MergeGate = {
  rulesOf: checkRules,
  merged: (tx, input) => endOpen(tx, input, 'merged'),
};

export const closeOnDiscard: DiscardHook = (tx, input) => endOpen(tx, input, 'closed');
