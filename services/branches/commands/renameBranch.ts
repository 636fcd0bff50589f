/**
 * PATCH /v1/branches/{id} (renameBranch): rename only. Owner only (others: 404), with the
 * editor role still held (403 forbidden: a member demoted to viewer keeps seeing the
 * branch but may no longer change it); 409 main_not_writable on main, branch_not_active
 * on discarded or merged, project_archived in an archived project (read-only).
 */
import type { Principal } from '../../../shared/http/principal';
import type { ServiceContext } from '../../../shared/http/serviceContext';
import { nowTimestamp } from '../../../shared/http/timestamps';
import { lockUser } from '../../identity';
import { ownedBranch, requireBranchChangeable } from '../branchAccess';
import { BranchRecord, checkBranchName } from '../branchRecord';
import { renameBranch as renameBranchQuery } from '../store/branchQueries';
import { requireFreeBranchName } from './forkBranch';

export async function renameBranch(
  ctx: ServiceContext,
  principal: Principal,
  branchId: string,
  body: { name?: unknown },
): Promise<BranchRecord> {
  return ctx.executor.writeTx(async (tx) => {
    await lockUser(tx, principal.userId);
    const { branch, ...grant } = await ownedBranch(tx, principal, branchId, { lock: true });
    requireBranchChangeable(principal, grant, branch);
    const name = checkBranchName(body.name);
    await requireFreeBranchName(tx, {
      projectId: branch.project_id,
      ownerId: principal.userId,
      name,
      excludeId: branch.id,
    });
    const row = await tx.one<{ branch: BranchRecord }>(renameBranchQuery, {
      id: branch.id,
      name,
      nameLower: name.toLowerCase(),
      now: nowTimestamp(),
    });
    if (!row) throw new Error('branch vanished during rename');
    return row.branch;
  });
}
