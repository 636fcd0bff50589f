/** GET /v1/projects (listProjects): the caller's projects, filtered by the key's allowlist. */
import type { Principal } from '../../../shared/http/principal';
import type { ServiceContext } from '../../../shared/http/serviceContext';
import type { ProjectRecord } from '../../identity';
import { listVisibleProjects } from '../store/projectQueries';

export async function listProjects(
  ctx: ServiceContext,
  principal: Principal,
  options: { limit: number; includeArchived: boolean },
): Promise<ProjectRecord[]> {
  const rows = await ctx.executor.read<{ project: ProjectRecord }>(listVisibleProjects, {
    userId: principal.userId,
    includeArchived: options.includeArchived,
    allowlist: principal.projectAllowlist ? [...principal.projectAllowlist] : null,
    limit: options.limit,
  });
  return rows.map((r) => r.project);
}
