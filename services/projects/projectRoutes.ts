/** HTTP operations of the projects service: parse, call the command, present. */
import { bodyObject, created, ok, OperationTable } from '../../shared/http/operation';
import type { ServiceContext } from '../../shared/http/serviceContext';
import { presentBranchRef } from '../branches';
import { createProject, CreateProjectInput } from './commands/createProject';
import { deleteProject } from './commands/deleteProject';
import { listProjects } from './commands/listProjects';
import { updateProject, UpdateProjectInput } from './commands/updateProject';
import { presentProject } from './projectPresenter';

export function projectRoutes(ctx: ServiceContext): OperationTable {
  const version = ctx.config.serviceVersion;
  return {
    createProject: async (req) => {
      const { project, main } = await createProject(
        ctx,
        req.principal,
        bodyObject(req.body) as unknown as CreateProjectInput,
      );
      return created({
        main_branch: presentBranchRef(main),
        project: presentProject(project),
        version,
      });
    },

    listProjects: async (req) => {
      const projects = await listProjects(ctx, req.principal, {
        limit: Number(req.query.limit ?? 100),
        includeArchived: req.query.include_archived === true,
      });
      return ok({ projects: projects.map(presentProject), version });
    },

    updateProject: async (req) => {
      const project = await updateProject(
        ctx,
        req.principal,
        req.params.project_id,
        bodyObject(req.body) as UpdateProjectInput,
      );
      return ok({ project: presentProject(project), version });
    },

    deleteProject: async (req) => {
      await deleteProject(ctx, req.principal, req.params.project_id);
      return ok({ project_id: req.params.project_id, deleted: true, version });
    },
  };
}
