/** HTTP operations of the graph-file service: parse, call the command, present. */
import { created, ok, OperationTable } from '../../shared/http/operation';
import type { ServiceContext } from '../../shared/http/serviceContext';
import { presentBranchRef } from '../branches';
import { graphVersion } from '../graph';
import { presentProject } from '../projects';
import { exportBranchFile } from './commands/exportBranchFile';
import { importProject } from './commands/importProject';

export function graphFileRoutes(ctx: ServiceContext): OperationTable {
  const version = ctx.config.serviceVersion;
  return {
    exportBranchFile: async (req) =>
      ok(await exportBranchFile(ctx, req.principal, req.params.branch_id, graphVersion(req))),

    importProject: async (req) => {
      const { project, main } = await importProject(ctx, req.principal, req.body);
      return created({
        main_branch: presentBranchRef(main),
        project: presentProject(project),
        version,
      });
    },
  };
}
