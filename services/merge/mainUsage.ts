/**
 * Main's usage after a merge, for the per-branch quotas (graph/branchUsage.ts): main's
 * counters moved by the difference over the entities the merge wrote (nodes and wires
 * added and removed, and the change of their content's JSON size), read from the sparse
 * before/after snapshots the merge already has; nothing else of main is measured.
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
  change: { before: Snapshot; after: Snapshot },
): Promise<{ after: BranchUsage; problem: string | null }> {
  const before = await usageOf(tx, main);
  const usage = {
    nodes: before.nodes + change.after.node.size - change.before.node.size,
    edges: before.edges + change.after.edge.size - change.before.edge.size,
    bytes: Math.max(0, before.bytes + contentBytes(change.after) - contentBytes(change.before)),
  };
  return { after: usage, problem: quotaProblem(ctx.config.quotas, before, usage) };
}
