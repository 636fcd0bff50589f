/**
 * Main's usage after a merge, for the per-branch quotas (graph/branchUsage.ts):
 * main then holds exactly the merged graph, so its nodes, wires and stored bytes
 * (the content's JSON size) are measured from the snapshot the merge already read.
 * A merge that would grow main past a quota is refused (422 branch_quota_exceeded).
 */
import type { ServiceContext } from '../../shared/http/serviceContext';
import type { QueryRunner } from '../../shared/neo4j/namedQuery';
import type { BranchRecord } from '../branches';
import { BranchUsage, quotaProblem, usageOf } from '../graph';
import { contentBytes, Snapshot } from './graphSnapshot';

export async function mainUsageAfter(
  ctx: ServiceContext,
  tx: QueryRunner,
  main: BranchRecord,
  after: Snapshot,
): Promise<{ after: BranchUsage; problem: string | null }> {
  const before = await usageOf(tx, main);
  const usage = { nodes: after.node.size, edges: after.edge.size, bytes: contentBytes(after) };
  return { after: usage, problem: quotaProblem(ctx.config.quotas, before, usage) };
}
