/**
 * Background purge of a discarded branch: removes, in batches, every node, port and
 * wire record on its line (`branch_id` = the branch: what it changed over main, with
 * its history and tombstones; main's records it read beneath are main's and stay) and
 * keeps the Branch record and its Change records (the structural_changes trail).
 * Idempotent: a rerun deletes nothing. Refuses a branch that is still active (a purge
 * must never touch live content).
 */
import { nowTimestamp } from '../../../shared/http/timestamps';
import { countDeleted } from '../../../shared/neo4j/batchedDelete';
import type { Executor } from '../../../shared/neo4j/executor';
import {
  findBranchForPurge,
  markBranchPurged,
  purgeBranchEdges,
  purgeBranchFindings,
  purgeBranchNodes,
  purgeBranchPorts,
  purgeBranchTouches,
} from '../store/purgeQueries';

export interface ContentCounts {
  nodes: number;
  ports: number;
  edges: number;
}

export class PurgeRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PurgeRefusedError';
  }
}

/** Deletes every record of a line in batches (shared with the project purge, main's line included). */
export async function purgeBranchContent(
  executor: Executor,
  branchId: string,
): Promise<ContentCounts> {
  const ports = await countDeleted(executor, purgeBranchPorts, { branchId });
  const nodes = await countDeleted(executor, purgeBranchNodes, { branchId });
  const edges = await countDeleted(executor, purgeBranchEdges, { branchId });
  await countDeleted(executor, purgeBranchFindings, { branchId });
  return { nodes, ports, edges };
}

/** Deletes every record of a line that never became a branch (a refused or abandoned
 * staged import): its content and the touches its content recorded. */
export async function purgeLine(executor: Executor, line: string): Promise<ContentCounts> {
  const counts = await purgeBranchContent(executor, line);
  await countDeleted(executor, purgeBranchTouches, { branchId: line });
  return counts;
}

export async function purgeBranch(executor: Executor, branchId: string): Promise<ContentCounts> {
  const rows = await executor.read<{ status: string; deleted: boolean }>(findBranchForPurge, {
    branchId,
  });
  const branch = rows[0];
  if (!branch) return { nodes: 0, ports: 0, edges: 0 }; // already gone with its project
  if (branch.status !== 'discarded' && !branch.deleted) {
    throw new PurgeRefusedError(`branch ${branchId} is ${branch.status}, not discarded`);
  }
  const counts = await purgeBranchContent(executor, branchId);
  await executor.write(markBranchPurged, { branchId, now: nowTimestamp() });
  return counts;
}
