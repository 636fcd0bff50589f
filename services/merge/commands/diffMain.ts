/**
 * GET /v1/projects/{project_id}/main/diff (getMainDiff): main at from_version against main at
 * to_version, by id, in the body of getBranchDiff (`branch` is main at to_version, `main_branch`
 * main at from_version). to_version defaults to main's head, from_version to the version before
 * to_version (never below the oldest kept one): without either, what the last merge changed.
 * Anyone who may read the project may call it. Only main's records opened or closed between the
 * two versions are read.
 */
import type { Principal } from '../../../shared/http/principal';
import type { ServiceContext } from '../../../shared/http/serviceContext';
import { loadMainBranch } from '../../branches';
import { mainView } from '../../graph';
import { visibleProject } from '../../identity';
import { lineChanges } from '../changeSets';
import { DiffVersions, versionRange } from '../versionRange';
import { BranchDiff, diffViews } from './diffBranch';

export async function diffMain(
  ctx: ServiceContext,
  principal: Principal,
  projectId: string,
  versions: DiffVersions = {},
): Promise<BranchDiff> {
  return ctx.executor.readTx(async (tx) => {
    await visibleProject(tx, principal, projectId);
    const main = await loadMainBranch(tx, projectId);
    const { from, to } = versionRange(main, versions, (head) => head - 1);
    const ids = await lineChanges(tx, main.id, from, to);
    const diff = await diffViews(tx, mainView(main.id, from), mainView(main.id, to), ids);
    return { branch: { ...main, version: to }, main: { ...main, version: from }, diff };
  });
}
