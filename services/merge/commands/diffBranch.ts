/**
 * GET /v1/branches/{id}/diff (getBranchDiff): the branch's graph against current main's, by id:
 * nodes, ports and edges added (branch only), removed (main only) and changed (both, with the
 * changed fields). Positions are layout and never count. No scope; the branch must be visible (its
 * owner), active and not main.
 */
import type { Principal } from '../../../shared/http/principal';
import type { ServiceContext } from '../../../shared/http/serviceContext';
import { loadMainBranch, requireWritable, visibleBranch } from '../../branches';
import type { BranchRecord } from '../../branches';
import { loadSnapshot } from '../graphSnapshot';
import { diffSnapshots, SnapshotDiff } from '../snapshotDiff';

export interface BranchDiff {
  branch: BranchRecord;
  main: BranchRecord;
  diff: SnapshotDiff;
}

export async function diffBranch(
  ctx: ServiceContext,
  principal: Principal,
  branchId: string,
): Promise<BranchDiff> {
  return ctx.executor.readTx(async (tx) => {
    const { branch } = await visibleBranch(tx, principal, branchId);
    requireWritable(branch);
    const main = await loadMainBranch(tx, branch.project_id);
    const mainNow = await loadSnapshot(tx, main.id);
    const branchNow = await loadSnapshot(tx, branch.id);
    return { branch, main, diff: diffSnapshots(mainNow, branchNow) };
  });
}
