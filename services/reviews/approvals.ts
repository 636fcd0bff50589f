/**
 * Which approvals count, defined once: each reviewer's latest verdict (approve or
 * request_changes; comments are not verdicts) on the branch's open change request; an
 * approval counts when it is of the branch's current version, and is stale when the
 * branch has changed since. The branch's owner never approves (reviewChangeRequest
 * refuses it), so every approval is of another member.
 */
import type { QueryRunner } from '../../shared/neo4j/namedQuery';
import type { BranchRecord } from '../branches';
import { findOpenOfBranch, latestVerdicts } from './store/reviewQueries';
import type { ChangeRequestRecord } from './changeRequestRecord';

export interface Approvals {
  current: number;
  stale: number;
}

/** The approvals of `crId` against the branch at `version`. */
export async function approvalsOfRequest(
  tx: QueryRunner,
  crId: string,
  version: number,
): Promise<Approvals> {
  const rows = await tx.run<{ verdict: string; branchVersion: number }>(latestVerdicts, { crId });
  const approvals = rows.filter((r) => r.verdict === 'approve');
  const current = approvals.filter((r) => r.branchVersion === version).length;
  return { current, stale: approvals.length - current };
}

/** The approvals of the branch's open change request (none without one). */
export async function approvalsOf(tx: QueryRunner, branch: BranchRecord): Promise<Approvals> {
  const open = await tx.one<{ changeRequest: ChangeRequestRecord }>(findOpenOfBranch, {
    branchId: branch.id,
  });
  if (!open) return { current: 0, stale: 0 };
  return approvalsOfRequest(tx, open.changeRequest.id, branch.version);
}

/** Whether a review of `version` is stale against the branch's current version. */
export function isStale(reviewed: number, current: number): boolean {
  return reviewed !== current;
}
