/** HTTP operations of the graph-file service: parse, call the command, present. */
import { created, OperationTable, streamed } from '../../shared/http/operation';
import type { ServiceContext } from '../../shared/http/serviceContext';
import { presentBranchRef } from '../branches';
import { graphVersion } from '../graph';
import { presentProject } from '../projects';
import { exportBranchFile } from './commands/exportBranchFile';
import { importProject } from './commands/importProject';
import { writeGraphFile } from './graphFileWriter';

export function graphFileRoutes(ctx: ServiceContext): OperationTable {
  const version = ctx.config.serviceVersion;
  return {
    // checked and its view settled before the file is streamed: a refusal is an error body
    exportBranchFile: async (req) => {
      const file = await exportBranchFile(
        ctx,
        req.principal,
        req.params.branch_id,
        graphVersion(req),
      );
      return streamed(async (out) => {
        await writeGraphFile(ctx.executor, file, out);
      });
    },

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
