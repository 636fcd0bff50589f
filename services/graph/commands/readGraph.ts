/**
 * Full-graph reads: main of a project (§4.9) and any visible branch (§4.10). A full
 * read sets the project's last_opened_at (interpretations "Projects"). A discarded
 * branch reads as empty (§3.2).
 */
import type { Principal } from '../../../shared/http/principal';
import type { ServiceContext } from '../../../shared/http/serviceContext';
import { nowTimestamp } from '../../../shared/http/timestamps';
import { visibleBranch } from '../../branches/branchAccess';
import type { BranchRecord } from '../../branches/branchRecord';
import { loadMainBranch } from '../../branches/mainBranch';
import { visibleProject } from '../../identity/projectAccess';
import { touchProjectOpened } from '../../projects/store/projectQueries';
import { LoadedGraph, loadBranchGraph, loadLiveGraph } from '../graphLoader';

export interface BranchGraph extends LoadedGraph {
  branch: BranchRecord;
}

async function touchOpened(ctx: ServiceContext, projectId: string): Promise<void> {
  await ctx.executor.write(touchProjectOpened, { id: projectId, now: nowTimestamp() });
}

export async function readMainGraph(
  ctx: ServiceContext,
  principal: Principal,
  projectId: string,
): Promise<BranchGraph> {
  const result = await ctx.executor.readTx(async (tx) => {
    await visibleProject(tx, principal, projectId);
    const branch = await loadMainBranch(tx, projectId);
    return { branch, ...(await loadBranchGraph(tx, branch.id)) };
  });
  await touchOpened(ctx, projectId);
  return result;
}

export async function readBranchGraph(
  ctx: ServiceContext,
  principal: Principal,
  branchId: string,
): Promise<BranchGraph> {
  const result = await ctx.executor.readTx(async (tx) => {
    const { branch } = await visibleBranch(tx, principal, branchId);
    return { branch, ...(await loadLiveGraph(tx, branch)) };
  });
  await touchOpened(ctx, result.branch.project_id);
  return result;
}
