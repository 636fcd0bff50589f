/**
 * Main and the merges into it: main is created in the same transaction as its
 * project, loaded (locked for forks and merges), and a merged branch marked so.
 */
import { randomUUID } from 'node:crypto';
import { NotFoundError } from '../../shared/errors/domainErrors';
import type { QueryRunner } from '../../shared/neo4j/namedQuery';
import { BranchRecord, MAIN_BRANCH_NAME } from './branchRecord';
import {
  createBranch,
  createDryRunFork,
  findMainBranch,
  lockMainBranchOf,
  markBranchMerged as markBranchMergedQuery,
} from './store/branchQueries';

export async function createMainBranch(
  tx: QueryRunner,
  input: { projectId: string; ownerId: string; now: string; id?: string },
): Promise<BranchRecord> {
  // a staged import chose main's id first: its content is already on that line
  const id = input.id ?? randomUUID();
  const row = await tx.one<{ branch: BranchRecord }>(createBranch, {
    id,
    mainId: id,
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

/**
 * A fork of `main` at its version that lives only inside the caller's transaction, which
 * must be rolled back (a dry run on main: validateDeltas). Reading main at a version is a
 * snapshot without a lock (records are kept per version), and the dry run writes on the
 * fork's line: main's lock and main's records are never taken, so a caller who cannot
 * write holds nothing a merge needs. `ownerId`: the caller (the fork is visible to it).
 */
export async function dryRunFork(
  tx: QueryRunner,
  main: BranchRecord,
  ownerId: string,
  now: string,
): Promise<BranchRecord> {
  const row = await tx.one<{ branch: BranchRecord }>(createDryRunFork, {
    id: randomUUID(),
    mainId: main.id,
    baseMainVersion: main.version,
    ownerId,
    now,
  });
  if (!row) throw new NotFoundError('branch');
  return row.branch;
}

/**
 * Marks a working branch merged into main (mergeBranch, in the merge's transaction,
 * at the time the merge is recorded on main); returns the branch as it is now.
 */
export async function markBranchMerged(
  tx: QueryRunner,
  branchId: string,
  now: string,
): Promise<BranchRecord> {
  const row = await tx.one<{ branch: BranchRecord }>(markBranchMergedQuery, { id: branchId, now });
  if (!row) throw new Error('the merged branch was not marked');
  return row.branch;
}
