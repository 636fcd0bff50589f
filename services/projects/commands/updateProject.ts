/**
 * PATCH /v1/projects/{id} (updateProject): rename, archive, restore. Owner only (others: 404). A
 * rename, or a restore to active, re-checks name uniqueness, which a key limited to some
 * projects may not have done (403 key_limited_to_projects).
 */
import { InvalidInputError } from '../../../shared/errors/domainErrors';
import type { Principal } from '../../../shared/http/principal';
import type { ServiceContext } from '../../../shared/http/serviceContext';
import { nowTimestamp } from '../../../shared/http/timestamps';
import {
  lockUser,
  ownedProject,
  ProjectRecord,
  requireKeyForAllProjects,
  requireScope,
} from '../../identity';
import { checkProjectName } from '../projectRules';
import { lockProjectBranches, updateProject as updateProjectQuery } from '../store/projectQueries';
import { requireFreeName } from './createProject';

export interface UpdateProjectInput {
  name?: unknown;
  archived?: unknown;
}

export async function updateProject(
  ctx: ServiceContext,
  principal: Principal,
  projectId: string,
  body: UpdateProjectInput,
): Promise<ProjectRecord> {
  const hasName = body.name !== undefined;
  const hasArchived = body.archived !== undefined;
  return ctx.executor.writeTx(async (tx) => {
    await lockUser(tx, principal.userId);
    const { project } = await ownedProject(tx, principal, projectId);
    requireScope(principal, 'graph:write');
    if (!hasName && !hasArchived) {
      throw new InvalidInputError('no_fields', 'send at least one of name, archived');
    }
    const changes: Record<string, unknown> = {};
    const name = hasName ? checkProjectName(body.name) : project.name;
    if (hasName) Object.assign(changes, { name, name_lower: name.toLowerCase() });
    const archived = hasArchived ? body.archived === true : project.archived;
    if (hasArchived) changes.archived = archived;
    // writers read `archived` under their branch locks: archiving waits for them
    if (archived && !project.archived) await tx.run(lockProjectBranches, { projectId });
    if (!archived && (hasName || project.archived)) {
      requireKeyForAllProjects(principal);
      await requireFreeName(tx, principal.userId, name, project.id);
    }
    const row = await tx.one<{ project: ProjectRecord }>(updateProjectQuery, {
      id: project.id,
      changes,
      now: nowTimestamp(),
    });
    if (!row) throw new Error('project vanished during update');
    return row.project;
  });
}
