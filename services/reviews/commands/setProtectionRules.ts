/**
 * getProtectionRules (every member, no scope) and setProtectionRules (the project's
 * owner only: anyone else gets the 404 of a missing project, as for renaming it; scope
 * graph:write; an archived project is read-only, 409 project_archived).
 */
import type { Principal } from '../../../shared/http/principal';
import type { ServiceContext } from '../../../shared/http/serviceContext';
import { nowTimestamp } from '../../../shared/http/timestamps';
import { requireProjectActive } from '../../branches';
import { ownedProject, requireScope, visibleProject } from '../../identity';
import { ProtectionRules, rulesOfProject, StoredRules } from '../protectionRules';
import { saveRules } from '../store/ruleQueries';

export async function getProtectionRules(
  ctx: ServiceContext,
  principal: Principal,
  projectId: string,
): Promise<StoredRules> {
  return ctx.executor.readTx(async (tx) => {
    await visibleProject(tx, principal, projectId);
    return rulesOfProject(tx, projectId);
  });
}

export async function setProtectionRules(
  ctx: ServiceContext,
  principal: Principal,
  projectId: string,
  rules: ProtectionRules,
): Promise<StoredRules> {
  return ctx.executor.writeTx(async (tx) => {
    const grant = await ownedProject(tx, principal, projectId);
    requireScope(principal, 'graph:write');
    requireProjectActive(grant);
    const now = nowTimestamp();
    await tx.run(saveRules, {
      projectId,
      requiredApprovals: rules.required_approvals,
      noErrorFindings: rules.no_error_findings,
      requireUpToDate: rules.require_up_to_date,
      now,
      userId: principal.userId,
    });
    return { rules, updatedAt: now };
  });
}
