/**
 * Name search on a project's main (searchMainNodes): the same answer as searchNodes
 * for main, reached from the project id, so a member who owns no branch can find a
 * node of main by name.
 */
import type { Principal } from '../../../shared/http/principal';
import type { ServiceContext } from '../../../shared/http/serviceContext';
import { loadMainBranch } from '../../branches';
import { visibleProject } from '../../identity';
import { NodeSearch, searchNodes } from './searchNodes';

export async function searchMainNodes(
  ctx: ServiceContext,
  principal: Principal,
  projectId: string,
  query: string,
  limit?: number,
  version?: number,
): Promise<NodeSearch> {
  const main = await ctx.executor.readTx(async (tx) => {
    await visibleProject(tx, principal, projectId);
    return loadMainBranch(tx, projectId);
  });
  return searchNodes(ctx, principal, main.id, query, limit, version);
}
