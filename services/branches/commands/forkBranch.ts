/**
 * POST /v1/projects/{id}/branches (forkBranch): fork a working branch from main's current state.
 * Editor role, scope graph:write, project not archived, under the per-caller branch limit (409
 * branch_limit_reached), name unique among the caller's active branches (409 name_taken). The
 * user's lock serializes a caller's concurrent forks so the limit and the name rule hold.
 * A fork writes the Branch record only: the branch reads main as it was at its
 * base_main_version beneath the records it writes itself (copy-on-write).
 */
import { randomUUID } from 'node:crypto';
import { ConflictError } from '../../../shared/errors/domainErrors';
import type { Principal } from '../../../shared/http/principal';
import type { ServiceContext } from '../../../shared/http/serviceContext';
import { nowTimestamp } from '../../../shared/http/timestamps';
import { recordEvent } from '../../feed';
import { lockUser, requireRole, requireScope, visibleProject } from '../../identity';
import { requireProjectActive } from '../branchAccess';
import { BranchRecord, checkBranchName } from '../branchRecord';
import type { ForkContent } from '../forkContent';
import { loadMainBranch } from '../mainBranch';
import {
  countActiveBranchesOfOwner,
  createBranch,
  findBranchNameClash,
} from '../store/branchQueries';
import type { QueryRunner } from '../../../shared/neo4j/namedQuery';

export async function requireFreeBranchName(
  tx: QueryRunner,
  input: { projectId: string; ownerId: string; name: string; excludeId: string },
): Promise<void> {
  const clash = await tx.one(findBranchNameClash, {
    projectId: input.projectId,
    ownerId: input.ownerId,
    nameLower: input.name.toLowerCase(),
    excludeId: input.excludeId,
  });
  if (clash)
    throw new ConflictError('name_taken', 'you already have an active branch with this name');
}

export async function forkBranch(
  ctx: ServiceContext,
  content: ForkContent,
  principal: Principal,
  projectId: string,
  body: { name?: unknown },
): Promise<BranchRecord> {
  return ctx.executor.writeTx(async (tx) => {
    const grant = await visibleProject(tx, principal, projectId);
    requireScope(principal, 'graph:write');
    requireRole(grant, 'editor');
    const name = checkBranchName(body.name);
    requireProjectActive(grant);
    await lockUser(tx, principal.userId);
    const count = await tx.one<{ total: number }>(countActiveBranchesOfOwner, {
      projectId,
      ownerId: principal.userId,
    });
    const limit = ctx.config.limits.branchLimit;
    if ((count?.total ?? 0) >= limit) {
      throw new ConflictError(
        'branch_limit_reached',
        `you already hold ${limit} active branches in this project`,
      );
    }
    await requireFreeBranchName(tx, { projectId, ownerId: principal.userId, name, excludeId: '' });
    const main = await loadMainBranch(tx, projectId, { lock: true });
    // read again under main's lock: an archive in between has committed by now
    requireProjectActive(await visibleProject(tx, principal, projectId));
    const row = await tx.one<{ branch: BranchRecord }>(createBranch, {
      id: randomUUID(),
      projectId,
      ownerId: principal.userId,
      name,
      nameLower: name.toLowerCase(),
      isMain: false,
      baseMainVersion: main.version,
      mainId: main.id,
      now: nowTimestamp(),
      // the fork reads main's content at its base (nothing is copied), and starts
      // with main's usage counters (per-branch quotas)
      usage: await content.usageOf(tx, main),
    });
    if (!row) throw new Error('branch was not created');
    await recordEvent(tx, {
      projectId,
      kind: 'branch_forked',
      actorId: principal.userId,
      now: row.branch.created_at,
      branchId: row.branch.id,
      branchVersion: 0,
      onlyFor: principal.userId,
    });
    return row.branch;
  });
}
