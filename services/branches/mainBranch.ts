/** Main is created in the same transaction as its project. */
import { randomUUID } from 'node:crypto';
import { NotFoundError } from '../../shared/errors/domainErrors';
import type { QueryRunner } from '../../shared/neo4j/namedQuery';
import { BranchRecord, MAIN_BRANCH_NAME } from './branchRecord';
import { createBranch, findMainBranch, lockMainBranchOf } from './store/branchQueries';

export async function createMainBranch(
  tx: QueryRunner,
  input: { projectId: string; ownerId: string; now: string },
): Promise<BranchRecord> {
  const row = await tx.one<{ branch: BranchRecord }>(createBranch, {
    id: randomUUID(),
    projectId: input.projectId,
    ownerId: input.ownerId,
    name: MAIN_BRANCH_NAME,
    nameLower: MAIN_BRANCH_NAME,
    isMain: true,
    baseMainVersion: 0,
    now: input.now,
    usage: { nodes: 0, edges: 0, bytes: 0 },
  });
  if (!row) throw new Error('main branch was not created');
  return row.branch;
}

/**
 * Main of a project. With `lock`, main's write lock is held until the transaction
 * ends, so a fork copies a main that no merge is changing underneath it.
 */
export async function loadMainBranch(
  tx: QueryRunner,
  projectId: string,
  options: { lock?: boolean } = {},
): Promise<BranchRecord> {
  const row = await tx.one<{ branch: BranchRecord }>(
    options.lock ? lockMainBranchOf : findMainBranch,
    {
      projectId,
    },
  );
  if (!row) throw new NotFoundError('branch');
  return row.branch;
}
