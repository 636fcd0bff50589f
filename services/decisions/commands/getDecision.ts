/**
 * GET /v1/decisions/{id} (getDecision). A decision that does not exist, belongs to a project the
 * caller may not see, or is not settled (captured, interviewing) gives one and the same 404; those
 * are decided before the scope, so a caller without decisions:read cannot tell them apart either. A
 * visible, settled decision and no scope: 403 insufficient_scope.
 */
import { NotFoundError } from '../../../shared/errors/domainErrors';
import type { Principal } from '../../../shared/http/principal';
import type { ServiceContext } from '../../../shared/http/serviceContext';
import { requireScope, visibleProject } from '../../identity';
import { DecisionRecord, isSettled } from '../decisionRecord';
import { findDecision } from '../store/decisionQueries';

export async function getDecision(
  ctx: ServiceContext,
  principal: Principal,
  decisionId: string,
): Promise<DecisionRecord> {
  return ctx.executor.readTx(async (tx) => {
    const row = await tx.one<{ decision: DecisionRecord }>(findDecision, {
      id: decisionId.toLowerCase(),
    });
    if (!row || !isSettled(row.decision.state)) throw new NotFoundError('decision');
    try {
      await visibleProject(tx, principal, row.decision.project_id);
    } catch (error) {
      if (error instanceof NotFoundError) throw new NotFoundError('decision');
      throw error;
    }
    requireScope(principal, 'decisions:read');
    return row.decision;
  });
}
