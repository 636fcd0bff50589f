/**
 * Per-branch quotas: how many nodes and wires a branch holds, and how many bytes
 * it stores, each bounded by Config.quotas (422 branch_quota_exceeded). The
 * counters live on the Branch and move with every write, so a check costs no scan:
 *
 * - nodes, wires: exact, from what each batch adds and removes (BatchApplier.usage);
 * - stored bytes: the graph content the branch started from (the JSON size of its
 *   nodes, ports and wires when it was forked, imported or last merged into) plus
 *   the recorded size of every batch since. A branch's trail holds every batch and
 *   its content was written by them, so this bounds both what it stores and what a
 *   merge of it reads and records on main.
 *
 * A limit refuses only growth: a branch over a lowered quota may still shrink.
 */
import type { Config } from '../../shared/config/config';
import type { QueryRunner } from '../../shared/neo4j/namedQuery';
import type { ForkContent } from '../branches';
import { deltaError } from './deltas/deltaErrors';
import { measureBranch, setBranchUsage } from './store/usageQueries';
import { branchView } from './view';

export interface BranchUsage {
  nodes: number;
  edges: number;
  bytes: number;
}

/** The counters as stored on a Branch (absent on branches written before they existed). */
export interface UsageCounters {
  id: string;
  /** Where the branch reads from (a measure counts what its head version sees). */
  version: number;
  base_main_version: number;
  main_id: string;
  node_count?: number | null;
  edge_count?: number | null;
  stored_bytes?: number | null;
}

export async function usageOf(tx: QueryRunner, branch: UsageCounters): Promise<BranchUsage> {
  const bytes = branch.stored_bytes ?? 0;
  if (typeof branch.node_count === 'number' && typeof branch.edge_count === 'number') {
    return { nodes: branch.node_count, edges: branch.edge_count, bytes };
  }
  const row = await tx.one<{ nodes: number; edges: number }>(measureBranch, {
    view: branchView(branch, branch.main_id, branch.version),
  });
  return { nodes: row?.nodes ?? 0, edges: row?.edges ?? 0, bytes };
}

export async function saveUsage(
  tx: QueryRunner,
  branchId: string,
  usage: BranchUsage,
): Promise<void> {
  await tx.run(setBranchUsage, { branchId, ...usage });
}

/** The first quota `after` breaks while growing past `before`, as a sentence; null when none. */
export function quotaProblem(
  quotas: Config['quotas'],
  before: BranchUsage,
  after: BranchUsage,
): string | null {
  const checks: [keyof BranchUsage, number, string][] = [
    ['nodes', quotas.maxNodes, 'nodes'],
    ['edges', quotas.maxWires, 'wires'],
    ['bytes', quotas.maxStoredBytes, 'stored bytes'],
  ];
  for (const [key, max, label] of checks) {
    if (after[key] > max && after[key] > before[key]) {
      return `the branch would hold ${after[key]} ${label}; at most ${max} ${label} per branch (merge or discard it, or split the work)`;
    }
  }
  return null;
}

/** Throws the per-delta 422 branch_quota_exceeded when `after` breaks a quota. */
export function requireWithinQuota(
  quotas: Config['quotas'],
  before: BranchUsage,
  after: BranchUsage,
): void {
  const problem = quotaProblem(quotas, before, after);
  if (problem !== null) throw deltaError({ error: 'branch_quota_exceeded', message: problem });
}

export function grown(
  before: BranchUsage,
  change: { nodes: number; edges: number },
  bytes: number,
) {
  return {
    nodes: before.nodes + change.nodes,
    edges: before.edges + change.edges,
    bytes: before.bytes + bytes,
  };
}

/** The graph service's part of a fork, handed to branchRoutes by the process wiring:
 * the new branch starts with main's counters (it reads main's content, copying none). */
export const forkContent: ForkContent = {
  usageOf: (tx, main) => usageOf(tx, main),
};
