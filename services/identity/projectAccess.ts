/**
 * Who may see and do what on a project. Visible = the caller has a role on the project and the
 * key's allowlist (if any) names it. Invisible and missing projects raise the same NotFoundError.
 */
import {
  ForbiddenError,
  InsufficientScopeError,
  NotFoundError,
} from '../../shared/errors/domainErrors';
import { hasScope, Principal, Scope } from '../../shared/http/principal';
import type { QueryRunner } from '../../shared/neo4j/namedQuery';
import { findProjectWithRole, findProjectWithRoles } from './store/identityQueries';

export type Role = 'owner' | 'editor' | 'viewer';

const RANK: Record<Role, number> = { viewer: 1, editor: 2, owner: 3 };

/** A project as stored (the presenter maps it to ProjectOut field by field). */
export interface ProjectRecord {
  id: string;
  name: string;
  owner_id: string;
  archived: boolean;
  intent: string | null;
  language: string | null;
  created_at: string;
  updated_at: string;
  last_opened_at: string | null;
}

export interface ProjectGrant {
  project: ProjectRecord;
  role: Role;
}

export function allowlisted(principal: Principal, projectId: string): boolean {
  return principal.projectAllowlist === null || principal.projectAllowlist.has(projectId);
}

/** The project with the caller's role, or NotFoundError when not visible. */
export async function visibleProject(
  tx: QueryRunner,
  principal: Principal,
  projectId: string,
): Promise<ProjectGrant> {
  const row = await tx.one<{ project: ProjectRecord | null; role: Role | null }>(
    findProjectWithRole,
    { projectId, userId: principal.userId },
  );
  const grant = projectGrant(principal, row?.project ?? null, row?.role ?? null);
  if (!grant) throw new NotFoundError('project');
  return grant;
}

/**
 * For each of `principals`, whether the project is visible to it (as visibleProject
 * decides), read in one statement: what a poll shared by many callers checks for each.
 */
export async function visibleToEach(
  tx: QueryRunner,
  principals: readonly Principal[],
  projectId: string,
): Promise<boolean[]> {
  if (principals.length === 0) return [];
  const row = await tx.one<{
    project: ProjectRecord;
    roles: { user: string; role: Role | null }[];
  }>(findProjectWithRoles, {
    projectId,
    userIds: [...new Set(principals.map((p) => p.userId))],
  });
  const roles = new Map(row?.roles.map((r) => [r.user, r.role]) ?? []);
  return principals.map(
    (p) => projectGrant(p, row?.project ?? null, roles.get(p.userId) ?? null) !== null,
  );
}

/** The grant when the project exists and is visible to the caller, else null. */
export function projectGrant(
  principal: Principal,
  project: ProjectRecord | null,
  role: Role | null,
): ProjectGrant | null {
  if (!project || !role || !allowlisted(principal, project.id)) return null;
  return { project, role };
}

/** Owner-only routes answer non-owners with the 404 of a missing project. */
export async function ownedProject(
  tx: QueryRunner,
  principal: Principal,
  projectId: string,
): Promise<ProjectGrant> {
  const grant = await visibleProject(tx, principal, projectId);
  if (grant.role !== 'owner') throw new NotFoundError('project');
  return grant;
}

/** A visible project and a role too low: 403 forbidden. */
export function hasRole(grant: ProjectGrant, needed: Role): boolean {
  return RANK[grant.role] >= RANK[needed];
}

export function requireRole(grant: ProjectGrant, needed: Role): void {
  if (!hasRole(grant, needed)) {
    throw new ForbiddenError('forbidden', `this route needs the ${needed} role on the project`);
  }
}

/**
 * A key limited to some projects (an allowlist) may not choose a project's name:
 * create, import, rename, or restore (which checks the name again). Names are unique
 * among all of the user's active projects, so `409 name_taken` would tell such a key
 * the names of the projects it may not see; it gets 403 key_limited_to_projects,
 * whatever the name, before any name is compared.
 */
export function requireKeyForAllProjects(principal: Principal): void {
  if (principal.projectAllowlist !== null) {
    throw new ForbiddenError(
      'key_limited_to_projects',
      "this key is limited to some projects; choosing a project's name needs a key for all of your projects",
    );
  }
}

/** A missing scope: 403 insufficient_scope. */
export function requireScope(principal: Principal, scope: Scope): void {
  if (!hasScope(principal, scope)) throw new InsufficientScopeError(scope);
}
