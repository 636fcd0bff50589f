/**
 * GET /v1/projects/{id}/branches (listBranches): the caller's active working branches; main
 * excluded.
 */
import type { Principal } from '../../../shared/http/principal';
import type { ServiceContext } from '../../../shared/http/serviceContext';
import { visibleProject } from '../../identity';
import type { BranchRecord } from '../branchRecord';
import { listActiveBranchesOfOwner } from '../store/branchQueries';

export async function listBranches(
  ctx: ServiceContext,
  principal: Principal,
  projectId: string,
): Promise<BranchRecord[]> {
  return ctx.executor.readTx(async (tx) => {
    await visibleProject(tx, principal, projectId);
    const rows = await tx.run<{ branch: BranchRecord }>(listActiveBranchesOfOwner, {
      projectId,
      ownerId: principal.userId,
    });
    return rows.map((r) => r.branch);
  });
}
