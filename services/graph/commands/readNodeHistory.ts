/**
 * A node's history on a branch (getNodeHistory) or on main (getMainNodeHistory), at the
 * head or at `version` (GraphVersion): the changes that touched the node in what that
 * view reads, newest first, paged by limit and offset (graph/trail/nodeHistory.ts).
 * Visible to whoever may read the branch or main: a branch the caller cannot see, or a
 * node the view never had, is 404 like a missing one. Needs no scope.
 */
import type { Principal } from '../../../shared/http/principal';
import type { ServiceContext } from '../../../shared/http/serviceContext';
import { loadMainBranch, visibleBranch } from '../../branches';
import type { BranchRecord } from '../../branches';
import { visibleProject } from '../../identity';
import { NodeHistory, nodeHistory } from '../trail/nodeHistory';
import { resolveView } from '../viewResolver';

export interface NodeHistoryRead extends NodeHistory {
  branch: BranchRecord;
  nodeId: string;
}

export interface HistoryPage {
  limit: number;
  offset: number;
}

export async function readNodeHistory(
  ctx: ServiceContext,
  principal: Principal,
  branchId: string,
  nodeId: string,
  page: HistoryPage,
  version?: number,
): Promise<NodeHistoryRead> {
  return ctx.executor.readTx(async (tx) => {
    const { branch } = await visibleBranch(tx, principal, branchId);
    const view = resolveView(branch, version);
    return { branch, nodeId, ...(await nodeHistory(tx, view, nodeId.toLowerCase(), page)) };
  });
}

export async function readMainNodeHistory(
  ctx: ServiceContext,
  principal: Principal,
  projectId: string,
  nodeId: string,
  page: HistoryPage,
  version?: number,
): Promise<NodeHistoryRead> {
  return ctx.executor.readTx(async (tx) => {
    await visibleProject(tx, principal, projectId);
    const main = await loadMainBranch(tx, projectId);
    const view = resolveView(main, version);
    return { branch: main, nodeId, ...(await nodeHistory(tx, view, nodeId.toLowerCase(), page)) };
  });
}
