/**
 * The periodic sweep of the worker: Neo4j is the record of what is
 * owed. It finds deleted projects (the project node stays until its purge ends)
 * and discarded branches whose content purge has not finished, and enqueues a
 * purge for each; enqueueing is deduplicated by jobId, so a target whose job
 * is already waiting or running is not purged twice. This is how a delete made
 * while Redis was unreachable, or a job lost or exhausted, is caught up.
 */
import type { PurgeTarget } from '../../../shared/jobs/purgeRequests';
import type { Executor } from '../../../shared/neo4j/executor';
import { findUnpurgedBranches, findUnpurgedProjects } from '../store/purgeQueries';

/** Targets enqueued per sweep; the rest wait for the next one. */
export const SWEEP_LIMIT = 500;

export interface SweepResult {
  projects: number;
  branches: number;
}

export async function sweepPurges(
  executor: Executor,
  enqueue: (target: PurgeTarget) => Promise<void>,
): Promise<SweepResult> {
  const projects = await executor.read<{ id: string }>(findUnpurgedProjects, {
    limit: SWEEP_LIMIT,
  });
  for (const { id } of projects) await enqueue({ kind: 'project', projectId: id });
  const branches = await executor.read<{ id: string }>(findUnpurgedBranches, {
    limit: SWEEP_LIMIT,
  });
  for (const { id } of branches) await enqueue({ kind: 'branch', branchId: id });
  return { projects: projects.length, branches: branches.length };
}
