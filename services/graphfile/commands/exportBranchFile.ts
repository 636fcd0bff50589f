/**
 * GET /v1/branches/{id}/file (exportBranchFile): any visible branch, main included, as a
 * schema_version 6 graph file. No scope. The operator's `graphctl export` reads any live branch by
 * id, without a caller.
 */
import { NotFoundError } from '../../../shared/errors/domainErrors';
import type { Principal } from '../../../shared/http/principal';
import type { ServiceContext } from '../../../shared/http/serviceContext';
import type { Executor } from '../../../shared/neo4j/executor';
import { visibleBranch } from '../../branches';
import { loadLiveGraph } from '../../graph';
import { GraphFile, writeGraphFile } from '../graphFileWriter';
import { findBranchWithProject } from '../store/graphFileQueries';

export async function exportBranchFile(
  ctx: ServiceContext,
  principal: Principal,
  branchId: string,
): Promise<GraphFile> {
  return ctx.executor.readTx(async (tx) => {
    const { branch, project } = await visibleBranch(tx, principal, branchId);
    return writeGraphFile(project.name, await loadLiveGraph(tx, branch));
  });
}

/** graphctl export: no caller, any live branch. */
export async function exportBranchFileAsOperator(
  executor: Executor,
  branchId: string,
): Promise<GraphFile> {
  return executor.readTx(async (tx) => {
    const row = await tx.one<{ branchId: string; status: string; projectName: string }>(
      findBranchWithProject,
      {
        branchId: branchId.toLowerCase(),
      },
    );
    if (!row) throw new NotFoundError('branch');
    return writeGraphFile(
      row.projectName,
      await loadLiveGraph(tx, { id: row.branchId, status: row.status }),
    );
  });
}
