/**
 * POST /v1/projects (createProject): the project, its owner membership and its main branch in one
 * transaction. The user's lock serializes concurrent creates so that name uniqueness (active
 * projects, case-insensitive) and the cap both hold. A key limited to some projects may not
 * create one (403 key_limited_to_projects): name_taken would tell it the others' names.
 */
import { randomUUID } from 'node:crypto';
import { ConflictError } from '../../../shared/errors/domainErrors';
import type { Principal } from '../../../shared/http/principal';
import type { ServiceContext } from '../../../shared/http/serviceContext';
import { nowTimestamp } from '../../../shared/http/timestamps';
import type { QueryRunner } from '../../../shared/neo4j/namedQuery';
import type { BranchRecord } from '../../branches';
import { createMainBranch } from '../../branches';
import { lockUser, ProjectRecord, requireKeyForAllProjects, requireScope } from '../../identity';
import { checkIntent, checkLanguage, checkProjectName } from '../projectRules';
import {
  countOwnedProjects,
  createProject as createProjectQuery,
  findActiveNameClash,
} from '../store/projectQueries';

export interface CreateProjectInput {
  name: unknown;
  intent?: unknown;
  language?: unknown;
}

export interface CreatedProject {
  project: ProjectRecord;
  main: BranchRecord;
}

/** Checks input and scope; returns the clean values. */
export function checkCreateProject(principal: Principal, body: CreateProjectInput) {
  requireScope(principal, 'graph:write');
  requireKeyForAllProjects(principal);
  return {
    name: checkProjectName(body.name),
    intent: checkIntent(body.intent),
    language: checkLanguage(body.language),
  };
}

/** Inside a write transaction: lock, check name and cap, create project and main. */
export async function insertProject(
  tx: QueryRunner,
  ctx: ServiceContext,
  principal: Principal,
  input: { name: string; intent: string; language: string; mainId?: string },
): Promise<CreatedProject> {
  await lockUser(tx, principal.userId);
  await requireFreeName(tx, principal.userId, input.name, '');
  const count = await tx.one<{ total: number }>(countOwnedProjects, { userId: principal.userId });
  if ((count?.total ?? 0) >= ctx.config.limits.projectLimit) {
    throw new ConflictError(
      'project_limit_reached',
      `the project cap of ${ctx.config.limits.projectLimit} is reached (archived projects count; only deletion frees a slot)`,
    );
  }
  const now = nowTimestamp();
  const id = randomUUID();
  const row = await tx.one<{ project: ProjectRecord }>(createProjectQuery, {
    id,
    userId: principal.userId,
    name: input.name,
    nameLower: input.name.toLowerCase(),
    intent: input.intent,
    language: input.language,
    now,
  });
  if (!row) throw new Error('project was not created');
  const main = await createMainBranch(tx, {
    projectId: id,
    ownerId: principal.userId,
    now,
    id: input.mainId,
  });
  return { project: row.project, main };
}

export async function requireFreeName(
  tx: QueryRunner,
  userId: string,
  name: string,
  excludeId: string,
): Promise<void> {
  const clash = await tx.one(findActiveNameClash, {
    userId,
    nameLower: name.toLowerCase(),
    excludeId,
  });
  if (clash) {
    throw new ConflictError('name_taken', 'you already have an active project with this name');
  }
}

export async function createProject(
  ctx: ServiceContext,
  principal: Principal,
  body: CreateProjectInput,
): Promise<CreatedProject> {
  const input = checkCreateProject(principal, body);
  return ctx.executor.writeTx((tx) => insertProject(tx, ctx, principal, input));
}
