/**
 * mergeBranch (POST /v1/branches/{id}/merge): merge a working branch into main, all or nothing on both sides. Scope
 * graph:write; the branch's owner (others: 404) with an editor role (403). Main is
 * locked first, then the branch, always in that order, and versions are compared
 * only under both locks. On success main advances by one and records the merge on
 * its trail (kind merge, with the before-images later merges rebuild the base
 * from); the branch becomes merged. Any conflict: 409 merge_conflict, nothing kept.
 */
import { ConflictError, InvalidInputError } from '../../../shared/errors/domainErrors';
import type { Principal } from '../../../shared/http/principal';
import type { ServiceContext } from '../../../shared/http/serviceContext';
import { nowTimestamp } from '../../../shared/http/timestamps';
import {
  loadMainBranch,
  markBranchMerged,
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
import { recordMerge } from '../store/mergeQueries';

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
    // main's lock first, then the branch's, always in that order: two merges never deadlock
    const main = await loadMainBranch(tx, seen.project_id, { lock: true });
    const { branch, ...locked } = await visibleBranch(tx, principal, branchId, { lock: true });
    requireWritable(branch);
    // read again under the locks: an archive in between has committed by now
    requireProjectActive(locked);
    requireVersion(branch, expectedVersion);

    const outcome = await runMerge(tx, main, branch, {
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
    const usage = await mainUsageAfter(ctx, tx, main, outcome.after);
    if (usage.problem !== null) throw new InvalidInputError('branch_quota_exceeded', usage.problem);
    await saveUsage(tx, main.id, usage.after);
    const now = nowTimestamp();
    const images = beforeImages(outcome.before, diffSnapshots(outcome.before, outcome.after));
    const deltas = await recordedBranchText(tx, branch.id);
    const advanced = await tx.one<{ branch: BranchRecord }>(recordMerge, {
      mainId: main.id,
      now,
      actorId: principal.userId,
      deltas,
      deltasBytes: Buffer.byteLength(deltas),
      mergedBranchId: branch.id,
      mode: outcome.mode,
      images: JSON.stringify(images),
    });
    if (!advanced) throw new Error('the merge was not recorded on main');
    const merged = await markBranchMerged(tx, branch.id, now);
    return { branch: merged, main: advanced.branch, mode: outcome.mode };
  });
}
