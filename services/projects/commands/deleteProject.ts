/**
 * DELETE /v1/projects/{id} (deleteProject): owner only (others: 404), scope project:delete. The
 * project leaves every route in this transaction, and its webhooks are sent nothing more; its
 * branches, graph, decisions, memberships, feed, change requests with their reviews, protection
 * rules and webhooks with their deliveries are purged afterwards in batches by a background job,
 * requested once the transaction has committed (a failed request is caught up by the worker's
 * sweep, services/purge).
 */
import type { Principal } from '../../../shared/http/principal';
import type { ServiceContext } from '../../../shared/http/serviceContext';
import { nowTimestamp } from '../../../shared/http/timestamps';
import { ownedProject, requireScope } from '../../identity';
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
  await ctx.purges?.request({ kind: 'project', projectId });
}
