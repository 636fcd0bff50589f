/**
 * Full-graph reads: main of a project (getMainGraph) and any visible branch
 * (getBranchGraph), at the head or at an earlier version still readable (`version`).
 * A full read sets the project's last_opened_at. A discarded branch reads as empty.
 *
 * A read at an earlier version shows its nodes at their current positions (positions
 * are layout, not history). The branch row is read once and fixes the view; nodes, ports
 * and wires are then read at that view and streamed (graphStream.ts) in a transaction of
 * its own, at the head or pinned. A merge or apply that commits meanwhile cannot tear
 * the answer: it writes records of a later version, which the view does not see.
 */
import type { Principal } from '../../../shared/http/principal';
import type { ServiceContext } from '../../../shared/http/serviceContext';
import { loadMainBranch, visibleBranch } from '../../branches';
import type { BranchRecord } from '../../branches';
import { visibleProject } from '../../identity';
import { touchProjectOpened } from '../../projects';
import type { EdgeRecord, NodeWithPorts } from '../graphRecords';
import type { View } from '../view';
import { graphViewOf, resolveView } from '../viewResolver';

/** A read answered whole: a discarded branch's, which has no graph. */
export interface BranchGraph {
  branch: BranchRecord;
  nodes: NodeWithPorts[];
  edges: EdgeRecord[];
}

/**
 * A full read after its checks, streamed from `view` (graphStream.ts) in a transaction
 * of its own at that fixed view; `head`, on a read pinned to an earlier version, is the
 * line's head, whose node positions the answer shows. A discarded branch has no graph.
 */
export type GraphRead = { branch: BranchRecord; view: View; head?: View } | BranchGraph;

/** The streamed read of `view` of `branch`: its head's positions when pinned. */
function streamedRead(branch: BranchRecord, view: View): GraphRead {
  return view.ver === branch.version
    ? { branch, view }
    : { branch, view, head: resolveView(branch) };
}

async function touchOpened(ctx: ServiceContext, projectId: string): Promise<void> {
  await ctx.executor.writeTx((tx) => touchProjectOpened(tx, projectId));
}

export async function readMainGraph(
  ctx: ServiceContext,
  principal: Principal,
  projectId: string,
  version?: number,
): Promise<GraphRead> {
  const result = await ctx.executor.readTx(async (tx): Promise<GraphRead> => {
    await visibleProject(tx, principal, projectId);
    const branch = await loadMainBranch(tx, projectId);
    return streamedRead(branch, resolveView(branch, version));
  });
  await touchOpened(ctx, projectId);
  return result;
}

export async function readBranchGraph(
  ctx: ServiceContext,
  principal: Principal,
  branchId: string,
  version?: number,
): Promise<GraphRead> {
  const result = await ctx.executor.readTx(async (tx): Promise<GraphRead> => {
    const { branch } = await visibleBranch(tx, principal, branchId);
    const view = graphViewOf(branch, resolveView(branch, version));
    return view ? streamedRead(branch, view) : { branch, nodes: [], edges: [] };
  });
  await touchOpened(ctx, result.branch.project_id);
  return result;
}
