/**
 * Top level of a project's main (getMainTopLevel): the same answer as getTopLevel
 * for main, reached from the project id, so a member who owns no branch (main is
 * not in listBranches) can open main without a full read.
 */
import type { Principal } from '../../../shared/http/principal';
import type { ServiceContext } from '../../../shared/http/serviceContext';
import { loadMainBranch } from '../../branches';
import { visibleProject } from '../../identity';
import { readTopLevel, TopLevelRead } from './readTopLevel';

export async function readMainTopLevel(
  ctx: ServiceContext,
  principal: Principal,
  projectId: string,
  version?: number,
): Promise<TopLevelRead> {
  const main = await ctx.executor.readTx(async (tx) => {
    await visibleProject(tx, principal, projectId);
    return loadMainBranch(tx, projectId);
  });
  return readTopLevel(ctx, principal, main.id, version);
}
