/**
 * GET /v1/branches/{id}/diff (getBranchDiff): by id, the nodes, ports and edges added, removed
 * and changed (with the changed fields) between two graphs. Positions are layout and never count.
 * No scope; the branch must be visible (its owner).
 *
 * - Without from_version and to_version: the branch now against main now. The branch must be
 *   active and not main.
 * - With either: the branch at from_version (default 0, the fork point: main at the branch's
 *   base) against the branch at to_version (default its head); on main's own id, main's line
 *   between the two versions (as getMainDiff). A discarded branch has no history to compare.
 *
 * Both forms read only the change sets (changeSets.ts): the ids the compared lines changed
 * between the two graphs, loaded in both views. Every other entity is one shared record and
 * cannot differ.
 */
import { ConflictError } from '../../../shared/errors/domainErrors';
import type { Principal } from '../../../shared/http/principal';
import type { ServiceContext } from '../../../shared/http/serviceContext';
import type { QueryRunner } from '../../../shared/neo4j/namedQuery';
import { loadMainBranch, requireWritable, visibleBranch } from '../../branches';
import type { BranchRecord } from '../../branches';
import { baseAt, branchView, mainView } from '../../graph';
import type { View } from '../../graph';
import { IdSets, lineChanges, lineIds, loadSparse, unionIds } from '../changeSets';
import { diffSnapshots, SnapshotDiff } from '../snapshotDiff';
import { DiffVersions, versionRange } from '../versionRange';

export interface BranchDiff {
  /** The compared-to side, at the version shown in the answer's `branch`. */
  branch: BranchRecord;
  /** The compared-from side, at the version shown in the answer's `main_branch`. */
  main: BranchRecord;
  diff: SnapshotDiff;
}

/** The diff of two views over the ids that may differ between them. */
export async function diffViews(
  tx: QueryRunner,
  from: View,
  to: View,
  ids: IdSets,
): Promise<SnapshotDiff> {
  return diffSnapshots(await loadSparse(tx, from, ids), await loadSparse(tx, to, ids));
}

/** An active working branch now against main now. */
async function againstMain(tx: QueryRunner, branch: BranchRecord): Promise<BranchDiff> {
  const main = await loadMainBranch(tx, branch.project_id);
  const ids = unionIds(
    await lineIds(tx, branch.id),
    await lineChanges(tx, main.id, branch.base_main_version, main.version),
  );
  const diff = await diffViews(
    tx,
    mainView(main.id, main.version),
    branchView(branch, main.id, branch.version),
    ids,
  );
  return { branch, main, diff };
}

/**
 * The diff a change request shows every member of its project (reviews'
 * getChangeRequest): the branch, as its change request found it, against main now.
 */
export async function diffForReview(
  ctx: ServiceContext,
  branch: BranchRecord,
): Promise<BranchDiff> {
  return ctx.executor.readTx(async (tx) => {
    requireWritable(branch);
    return againstMain(tx, branch);
  });
}

export async function diffBranch(
  ctx: ServiceContext,
  principal: Principal,
  branchId: string,
  versions: DiffVersions = {},
): Promise<BranchDiff> {
  return ctx.executor.readTx(async (tx) => {
    const { branch } = await visibleBranch(tx, principal, branchId);
    const pinned = versions.from !== undefined || versions.to !== undefined;
    if (!pinned) requireWritable(branch);
    else if (branch.status === 'discarded') {
      throw new ConflictError('branch_not_active', 'the branch is discarded');
    }
    if (!pinned) return againstMain(tx, branch);
    const main = await loadMainBranch(tx, branch.project_id);
    const { from, to } = versionRange(branch, versions, 0);
    // across a rebase the branch reads main at another base: main's changes between
    // the two bases are the branch's too
    const [baseFrom, baseTo] = [baseAt(branch, from), baseAt(branch, to)];
    const ids = branch.is_main
      ? await lineChanges(tx, branch.id, from, to)
      : unionIds(
          await lineChanges(tx, branch.id, from, to),
          await lineChanges(tx, main.id, Math.min(baseFrom, baseTo), Math.max(baseFrom, baseTo)),
        );
    const diff = await diffViews(
      tx,
      branchView(branch, main.id, from),
      branchView(branch, main.id, to),
      ids,
    );
    if (branch.is_main)
      return { branch: { ...main, version: to }, main: { ...main, version: from }, diff };
    return {
      branch: { ...branch, version: to },
      main: { ...main, version: branch.base_main_version },
      diff,
    };
  });
}
