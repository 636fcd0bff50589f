/**
 * GET /v1/branches/{id}/file (exportBranchFile): any visible branch, main included, as a
 * schema_version 6 graph file: what the branch's view at its head, or at `version` while that
 * is readable (else 404 version_not_found), sees (main at that version; a working branch over
 * main at its base). No scope. The operator's `graphctl export` reads any
 * live branch by id, without a caller.
 *
 * The checks run here, in a transaction of their own, and settle the view; the file is
 * then written as a stream from that view (graphFileWriter.ts). So a refusal (not
 * visible, a version not readable, no such branch) is answered before the first byte of
 * the file, as an error with its body.
 */
import { NotFoundError } from '../../../shared/errors/domainErrors';
import type { Principal } from '../../../shared/http/principal';
import type { ServiceContext } from '../../../shared/http/serviceContext';
import type { Executor } from '../../../shared/neo4j/executor';
import { visibleBranch } from '../../branches';
import { branchView, graphViewOf, resolveView } from '../../graph';
import type { FileExport } from '../graphFileWriter';
import { findBranchWithProject } from '../store/graphFileQueries';

export async function exportBranchFile(
  ctx: ServiceContext,
  principal: Principal,
  branchId: string,
  version?: number,
): Promise<FileExport> {
  return ctx.executor.readTx(async (tx) => {
    const { branch, project } = await visibleBranch(tx, principal, branchId);
    const view = resolveView(branch, version);
    return { projectName: project.name, view: graphViewOf(branch, view) };
  });
}

/** graphctl export: no caller, any live branch, at its head. */
export async function exportBranchFileAsOperator(
  executor: Executor,
  branchId: string,
): Promise<FileExport> {
  return executor.readTx(async (tx) => {
    const row = await tx.one<{
      branch: {
        id: string;
        status: string;
        main_id: string;
        version: number;
        base_main_version: number;
      };
      projectName: string;
    }>(findBranchWithProject, { branchId: branchId.toLowerCase() });
    if (!row) throw new NotFoundError('branch');
    const { branch } = row;
    const view = branchView(branch, branch.main_id, branch.version);
    return { projectName: row.projectName, view: graphViewOf(branch, view) };
  });
}
