/**
 * DELETE /v1/projects/{id} (§3.1, §4.4): owner only (others: 404), scope
 * project:delete. The project leaves every route in this transaction; its
 * branches, graph and decisions are purged afterwards by the purge hook.
 */
import type { Principal } from '../../../shared/http/principal';
import type { ServiceContext } from '../../../shared/http/serviceContext';
import { nowTimestamp } from '../../../shared/http/timestamps';
import { ownedProject, requireScope } from '../../identity/projectAccess';
import { markProjectDeleted } from '../store/projectQueries';

export async function deleteProject(
  ctx: ServiceContext,
  principal: Principal,
  projectId: string,
): Promise<void> {
  await ctx.executor.writeTx(async (tx) => {
    await ownedProject(tx, principal, projectId);
    requireScope(principal, 'project:delete');
    await tx.run(markProjectDeleted, { id: projectId, now: nowTimestamp() });
  });
}
