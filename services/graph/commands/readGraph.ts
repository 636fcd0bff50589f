/**
 * Full-graph reads: main of a project (getMainGraph) and any visible branch
 * (getBranchGraph), at the head or at an earlier version still readable (`version`).
 * A full read sets the project's last_opened_at. A discarded branch reads as empty.
 *
 * A read at an earlier version shows its nodes at their current positions
 * (pinnedPositions.ts). The branch row is read once and fixes the view; nodes, ports and
 * wires are then read at that view, the head's streamed (graphStream.ts) in a
 * transaction of its own. A merge or apply that commits meanwhile cannot tear the
 * answer: it writes records of a later version, which the view does not see.
 */
import type { Principal } from '../../../shared/http/principal';
import type { ServiceContext } from '../../../shared/http/serviceContext';
import { loadMainBranch, visibleBranch } from '../../branches';
import type { BranchRecord } from '../../branches';
import { visibleProject } from '../../identity';
import { touchProjectOpened } from '../../projects';
import { LoadedGraph, loadBranchGraph, loadLiveGraph } from '../graphLoader';
import { showCurrentPositions } from '../pinnedPositions';
import type { View } from '../view';
import { resolveView } from '../viewResolver';

export interface BranchGraph extends LoadedGraph {
  branch: BranchRecord;
}

/**
 * A full read after its checks: the head of a live branch is streamed from `view`
 * (graphStream.ts) in a transaction of its own at that fixed view; a read pinned to an
 * earlier version (its nodes shown at their current positions) or of a discarded branch
 * is loaded whole.
 */
export type GraphRead = { branch: BranchRecord; view: View } | BranchGraph;

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
    const view = resolveView(branch, version);
    if (view.ver === branch.version) return { branch, view };
    const graph = await loadBranchGraph(tx, view);
    await showCurrentPositions(
      (q, p) => tx.run(q, p),
      branch,
      view,
      graph.nodes.map((n) => n.node),
    );
    return { branch, ...graph };
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
    const view = resolveView(branch, version);
    if (view.ver === branch.version && branch.status !== 'discarded') return { branch, view };
    const graph = await loadLiveGraph(tx, branch, view);
    await showCurrentPositions(
      (q, p) => tx.run(q, p),
      branch,
      view,
      graph.nodes.map((n) => n.node),
    );
    return { branch, ...graph };
  });
  await touchOpened(ctx, result.branch.project_id);
  return result;
}
