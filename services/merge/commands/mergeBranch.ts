/**
 * POST /v1/branches/{id}/merge (mergeBranch): merge a working branch into main, all or nothing on
 * both sides. Scope graph:write; the branch's owner (others: 404) with an editor role (403). Main
 * is locked first, then the branch, always in that order, and versions are compared only under both
 * locks. On success main advances by one and records the merge on its trail (kind merge, with the
 * before-images later merges rebuild the base from); the branch becomes merged. Any conflict: 409
 * merge_conflict, nothing kept.
 */
import {
  ConflictError,
  InvalidInputError,
  NotFoundError,
} from '../../../shared/errors/domainErrors';
import type { Principal } from '../../../shared/http/principal';
import type { ServiceContext } from '../../../shared/http/serviceContext';
import { nowTimestamp } from '../../../shared/http/timestamps';
import {
  requireProjectActive,
  requireVersion,
  requireWritable,
  visibleBranch,
} from '../../branches';
import type { BranchRecord } from '../../branches';
import { requireRole, requireScope } from '../../identity';
import { saveUsage } from '../../graph';
import { recordedBranchText } from '../branchHistory';
import { mainUsageAfter } from '../mainUsage';
import { MergeMode, runMerge } from '../mergeEngine';
import { beforeImages, diffSnapshots } from '../snapshotDiff';
import { lockMainBranch, markBranchMerged, recordMerge } from '../store/mergeQueries';

export interface MergeResult {
  branch: BranchRecord;
  main: BranchRecord;
  mode: MergeMode;
}

export async function mergeBranch(
  ctx: ServiceContext,
  principal: Principal,
  branchId: string,
  expectedVersion: number,
): Promise<MergeResult> {
  return ctx.executor.writeTx(async (tx) => {
    const { branch: seen, ...grant } = await visibleBranch(tx, principal, branchId);
    requireScope(principal, 'graph:write');
    requireRole(grant, 'editor');
    requireWritable(seen);
    requireProjectActive(grant);
    const mainRow = await tx.one<{ branch: BranchRecord }>(lockMainBranch, {
      projectId: seen.project_id,
    });
    if (!mainRow) throw new NotFoundError('branch');
    const { branch, ...locked } = await visibleBranch(tx, principal, branchId, { lock: true });
    requireWritable(branch);
    // read again under the locks: an archive in between has committed by now
    requireProjectActive(locked);
    requireVersion(branch, expectedVersion);

    const outcome = await runMerge(tx, mainRow.branch, branch, {
      maxDepth: ctx.config.limits.maxNestingDepth,
    });
    if (outcome.conflicts.length > 0 || outcome.after === null) {
      const n = outcome.conflicts.length;
      throw new ConflictError(
        'merge_conflict',
        `the merge conflicts with main in ${n} place${n === 1 ? '' : 's'}; nothing was changed`,
        { conflicts: outcome.conflicts },
      );
    }
    const usage = await mainUsageAfter(ctx, tx, mainRow.branch, outcome.after);
    if (usage.problem !== null) throw new InvalidInputError('branch_quota_exceeded', usage.problem);
    await saveUsage(tx, mainRow.branch.id, usage.after);
    const now = nowTimestamp();
    const images = beforeImages(outcome.before, diffSnapshots(outcome.before, outcome.after));
    const deltas = await recordedBranchText(tx, branch.id);
    const main = await tx.one<{ branch: BranchRecord }>(recordMerge, {
      mainId: mainRow.branch.id,
      now,
      actorId: principal.userId,
      deltas,
      deltasBytes: Buffer.byteLength(deltas),
      mergedBranchId: branch.id,
      mode: outcome.mode,
      images: JSON.stringify(images),
    });
    const merged = await tx.one<{ branch: BranchRecord }>(markBranchMerged, { id: branch.id, now });
    if (!main || !merged) throw new Error('merge records were not written');
    return { branch: merged.branch, main: main.branch, mode: outcome.mode };
  });
}
