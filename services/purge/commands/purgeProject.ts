/**
 * Background purge of a deleted project: the DELETE already took it off every route
 * (deleted_at), and no webhook delivery of it is sent from then on; this removes, in
 * batches, what the services that own the project's other records purge of it (its
 * webhooks with their delivery log, its feed, its change requests with their reviews
 * and comments and main's protection rules: each service's purge function, through its
 * index), then every line's node, port and wire records (main's history and each
 * branch's changes) and structural_changes, the branches, the decisions, the
 * memberships, and last the project node itself (so the sweep keeps finding the project
 * until everything else is gone). Idempotent: a rerun finds nothing. Refuses a project
 * that is not deleted.
 */
import { countDeleted } from '../../../shared/neo4j/batchedDelete';
import type { Executor } from '../../../shared/neo4j/executor';
import { FeedPurgeCounts, purgeProjectFeed } from '../../feed';
import { purgeProjectReviews, ReviewPurgeCounts } from '../../reviews';
import { purgeProjectWebhooks, WebhookPurgeCounts } from '../../webhooks';
import {
  deleteDeletedProject,
  findProjectForPurge,
  listProjectBranchIds,
  purgeBranchChanges,
  purgeBranchTouches,
  purgeProjectBranches,
  purgeProjectDecisions,
  purgeProjectMemberships,
} from '../store/purgeQueries';
import { ContentCounts, purgeBranchContent, PurgeRefusedError } from './purgeBranch';

export interface ProjectPurgeCounts
  extends ContentCounts, WebhookPurgeCounts, FeedPurgeCounts, ReviewPurgeCounts {
  changes: number;
  branches: number;
  decisions: number;
  memberships: number;
  projects: number;
}

export async function purgeProject(
  executor: Executor,
  projectId: string,
): Promise<ProjectPurgeCounts> {
  const found = await executor.read<{ deleted: boolean }>(findProjectForPurge, { projectId });
  if (found[0] && !found[0].deleted) {
    throw new PurgeRefusedError(`project ${projectId} is not deleted`);
  }
  // the webhooks first: nothing of the project is handed to a receiver once they are gone
  const owned = {
    ...(await purgeProjectWebhooks(executor, projectId)),
    ...(await purgeProjectFeed(executor, projectId)),
    ...(await purgeProjectReviews(executor, projectId)),
  };
  const counts: ProjectPurgeCounts = {
    ...owned,
    nodes: 0,
    ports: 0,
    edges: 0,
    changes: 0,
    branches: 0,
    decisions: 0,
    memberships: 0,
    projects: 0,
  };
  const branches = await executor.read<{ id: string }>(listProjectBranchIds, { projectId });
  for (const { id: branchId } of branches) {
    const content = await purgeBranchContent(executor, branchId);
    counts.nodes += content.nodes;
    counts.ports += content.ports;
    counts.edges += content.edges;
    counts.changes += await countDeleted(executor, purgeBranchChanges, { branchId });
    await countDeleted(executor, purgeBranchTouches, { branchId });
  }
  counts.decisions = await countDeleted(executor, purgeProjectDecisions, { projectId });
  counts.memberships = await countDeleted(executor, purgeProjectMemberships, { projectId });
  counts.branches = await countDeleted(executor, purgeProjectBranches, { projectId });
  counts.projects = await countDeleted(executor, deleteDeletedProject, { projectId });
  return counts;
}
