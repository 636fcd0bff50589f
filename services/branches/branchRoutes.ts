/** HTTP operations of the branches service: parse, call the command, present. */
import { bodyObject, created, ok, OperationTable } from '../../shared/http/operation';
import type { ServiceContext } from '../../shared/http/serviceContext';
import { presentBranch } from './branchPresenter';
import type { BranchRecord } from './branchRecord';
import { discardBranch } from './commands/discardBranch';
import { forkBranch } from './commands/forkBranch';
import type { ForkContent } from './forkContent';
import type { DiscardHook } from './discardHook';
import { listBranches } from './commands/listBranches';
import { renameBranch } from './commands/renameBranch';

export interface BranchRoutesOptions {
  /** The graph service's part of a fork (the usage counters it starts with). */
  forkContent: ForkContent;
  /** What follows a discard in its transaction (reviews: the change request closed). */
  onDiscard?: DiscardHook;
}

export function branchRoutes(ctx: ServiceContext, options: BranchRoutesOptions): OperationTable {
  const version = ctx.config.serviceVersion;
  /** One branch answer: the branch with its project and the service version. */
  const branchAnswer = (branch: BranchRecord) => ({
    branch: presentBranch(branch),
    project_id: branch.project_id,
    version,
  });
  return {
    forkBranch: async (req) => {
      const branch = await forkBranch(
        ctx,
        options.forkContent,
        req.principal,
        req.params.project_id,
        bodyObject(req.body),
      );
      return created(branchAnswer(branch));
    },

    listBranches: async (req) => {
      const { project_id } = req.params;
      const branches = await listBranches(ctx, req.principal, project_id);
      return ok({ branches: branches.map(presentBranch), project_id, version });
    },

    renameBranch: async (req) => {
      const body = bodyObject(req.body);
      return ok(branchAnswer(await renameBranch(ctx, req.principal, req.params.branch_id, body)));
    },

    discardBranch: async (req) => {
      const expected = Number(req.query.expected_version);
      const branch = await discardBranch(
        ctx,
        req.principal,
        req.params.branch_id,
        expected,
        options.onDiscard,
      );
      return ok(branchAnswer(branch));
    },
  };
}
