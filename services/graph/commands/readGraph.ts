/**
 * Full-graph reads: main of a project (getMainGraph) and any visible branch (getBranchGraph). A
 * full read sets the project's last_opened_at. A discarded branch reads as empty.
 *
 * Nodes, ports and edges are read by separate statements, and Neo4j reads committed
 * data statement by statement: a merge or apply that commits between them would tear
 * the answer (nodes after it, edges before). Every such write moves the branch's
 * version, so the read checks the version once more at the end and reads again
 * when it moved (READ_ATTEMPTS in all, then 503 with Retry-After).
 */
import type { Principal } from '../../../shared/http/principal';
import type { ServiceContext } from '../../../shared/http/serviceContext';
import { ServiceUnavailableError } from '../../../shared/errors/domainErrors';
import type { QueryRunner } from '../../../shared/neo4j/namedQuery';
import { loadMainBranch, visibleBranch } from '../../branches';
import type { BranchRecord } from '../../branches';
import { visibleProject } from '../../identity';
import { touchProjectOpened } from '../../projects';
import { LoadedGraph, loadBranchGraph, loadLiveGraph } from '../graphLoader';
import { readBranchVersion } from '../store/changeQueries';

export interface BranchGraph extends LoadedGraph {
  branch: BranchRecord;
}

const READ_ATTEMPTS = 4;

/** Runs `read` until the branch it read kept its version from start to end. */
async function untorn(
  ctx: ServiceContext,
  read: (tx: QueryRunner) => Promise<BranchGraph>,
): Promise<BranchGraph> {
  for (let attempt = 1; attempt <= READ_ATTEMPTS; attempt += 1) {
    const graph = await ctx.executor.readTx(async (tx) => {
      const result = await read(tx);
      const now = await tx.one<{ version: number }>(readBranchVersion, { id: result.branch.id });
      return now?.version === result.branch.version ? result : undefined;
    });
    if (graph) return graph;
  }
  throw new ServiceUnavailableError('the branch kept changing while it was read, retry', 1);
}

async function touchOpened(ctx: ServiceContext, projectId: string): Promise<void> {
  await ctx.executor.writeTx((tx) => touchProjectOpened(tx, projectId));
}

export async function readMainGraph(
  ctx: ServiceContext,
  principal: Principal,
  projectId: string,
): Promise<BranchGraph> {
  const result = await untorn(ctx, async (tx) => {
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
  const result = await untorn(ctx, async (tx) => {
    const { branch } = await visibleBranch(tx, principal, branchId);
    return { branch, ...(await loadLiveGraph(tx, branch)) };
  });
  await touchOpened(ctx, result.branch.project_id);
  return result;
}
