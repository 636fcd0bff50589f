/** HTTP operations of the merge service: parse, call the command, present. */
import { ConflictError, DomainError, InvalidInputError } from '../../shared/errors/domainErrors';
import { ok, OperationRequest, OperationTable } from '../../shared/http/operation';
import type { ServiceContext } from '../../shared/http/serviceContext';
import { presentBranchRef } from '../branches';
import { idempotentWrite, requireApplyAccess } from '../graph';
import type { IdempotencyStore } from '../graph';
import { rebaseBranch, RebaseRequest, RebaseResult } from './commands/rebaseBranch';
import { diffBranch } from './commands/diffBranch';
import { diffMain } from './commands/diffMain';
import { listChanges } from './commands/listChanges';
import { mergeBranch } from './commands/mergeBranch';
import { previewMerge } from './commands/previewMerge';
import {
  presentChange,
  presentDiff,
  presentMerge,
  presentPreview,
  presentRebase,
} from './mergePresenter';
import { queryVersion } from './versionRange';
import type { MergeGate } from './mergeGate';

export const CHANGES_PAGE_DEFAULT = 50;

/** Refusals a rebase reached by looking at the branch, kept for a repeat of its key. */
function isReplayable(error: unknown): error is DomainError {
  if (error instanceof ConflictError)
    return ['version_conflict', 'merge_conflict'].includes(error.code);
  return (
    error instanceof InvalidInputError &&
    ['unknown_conflict', 'invalid_resolution'].includes(error.code)
  );
}

export interface MergeRoutesOptions {
  /** Main's protection rules and what follows a merge (the reviews service). */
  gate: MergeGate;
  /**
   * The store of recorded Idempotency-Keys; a process without one does not serve
   * rebaseBranch (its keys are a branch write's, as applyDeltas's).
   */
  idempotency?: IdempotencyStore;
}

export function mergeRoutes(ctx: ServiceContext, options: MergeRoutesOptions): OperationTable {
  const version = ctx.config.serviceVersion;
  const { gate, idempotency } = options;
  // the gateway validated the body against RebaseRequest
  const rebaseOnce = (store: IdempotencyStore, req: OperationRequest) =>
    idempotentWrite(store, req, {
      run: (recorded) =>
        rebaseBranch(ctx, req.principal, req.params.branch_id, req.body as RebaseRequest, recorded),
      present: (result: RebaseResult) => presentRebase(result, version),
      requireAccess: () => requireApplyAccess(ctx, req.principal, req.params.branch_id),
      isReplayable,
    });
  return {
    ...(idempotency && { rebaseBranch: (req: OperationRequest) => rebaseOnce(idempotency, req) }),
    // the gateway validated the body against MergeRequest (expected_version: integer >= 0)
    mergeBranch: async (req) => {
      const body = req.body as { expected_version: number };
      const result = await mergeBranch(
        ctx,
        req.principal,
        req.params.branch_id,
        body.expected_version,
        { gate },
      );
      return ok(presentMerge(result, version));
    },

    getMergePreview: async (req) =>
      ok(
        presentPreview(
          await previewMerge(ctx, req.principal, req.params.branch_id, { gate }),
          version,
        ),
      ),

    getBranchDiff: async (req) => {
      const versions = {
        from: queryVersion(req.query.from_version),
        to: queryVersion(req.query.to_version),
      };
      return ok(
        presentDiff(await diffBranch(ctx, req.principal, req.params.branch_id, versions), version),
      );
    },

    getMainDiff: async (req) => {
      const versions = {
        from: queryVersion(req.query.from_version),
        to: queryVersion(req.query.to_version),
      };
      return ok(
        presentDiff(await diffMain(ctx, req.principal, req.params.project_id, versions), version),
      );
    },

    listBranchChanges: async (req) => {
      const limit = Number(req.query.limit ?? CHANGES_PAGE_DEFAULT);
      const offset = Number(req.query.offset ?? 0);
      const page = await listChanges(ctx, req.principal, req.params.branch_id, { limit, offset });
      return ok({
        branch: presentBranchRef(page.branch),
        changes: page.changes.map(presentChange),
        has_more: page.hasMore,
        limit,
        offset,
        project_id: page.branch.project_id,
        version,
      });
    },
  };
}
