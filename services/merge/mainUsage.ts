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

/** The change of main's counters over the entities a merge wrote, from their snapshots. */
export function usageChangeOf(change: { before: Snapshot; after: Snapshot }): BranchUsage {
  return {
    nodes: change.after.node.size - change.before.node.size,
    edges: change.after.edge.size - change.before.edge.size,
    bytes: contentBytes(change.after) - contentBytes(change.before),
  };
}

/** `change`: the snapshots of what the merge wrote, or its usage change measured before
 * (a staged merge's, writtenMeasure.ts). */
export async function mainUsageAfter(
  ctx: ServiceContext,
  tx: QueryRunner,
  main: BranchRecord,
  change: { before: Snapshot; after: Snapshot } | BranchUsage,
): Promise<{ after: BranchUsage; problem: string | null }> {
  const before = await usageOf(tx, main);
  const delta = 'before' in change ? usageChangeOf(change) : change;
  const usage = {
    nodes: before.nodes + delta.nodes,
    edges: before.edges + delta.edges,
    bytes: Math.max(0, before.bytes + delta.bytes),
  };
  return { after: usage, problem: quotaProblem(ctx.config.quotas, before, usage) };
}
