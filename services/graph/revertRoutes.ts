/**
 * HTTP operation revertBranch: parse, call the command, present. An Idempotency-Key is
 * honoured as applyDeltas honours it (idempotentWrite.ts), so a retry whose cached
 * answer was lost is answered from the recorded revert instead of reverting twice.
 */
import {
  DomainError,
  RevertConflictError,
  VersionConflictError,
} from '../../shared/errors/domainErrors';
import type {
  OperationRequest,
  OperationResult,
  OperationTable,
} from '../../shared/http/operation';
import type { ServiceContext } from '../../shared/http/serviceContext';
import { presentBranchRef } from '../branches';
import { requireApplyAccess } from './commands/applyDeltas';
import { revertBatch, RevertResult } from './commands/revertBatch';
import type { IdempotencyStore } from './idempotency';
import { idempotentWrite } from './idempotentWrite';

function presentRevert(result: RevertResult, version: string) {
  return {
    branch: presentBranchRef(result.branch),
    reverted_version: result.revertedVersion,
    project_id: result.branch.project_id,
    version,
  };
}

/** Answers that reached the revert step and are kept for replay. */
function isReplayable(error: unknown): error is DomainError {
  return error instanceof RevertConflictError || error instanceof VersionConflictError;
}

/**
 * `idempotency`: the store of recorded Idempotency-Keys; a process without one does
 * not serve revertBranch.
 */
export function revertRoutes(
  ctx: ServiceContext,
  deps: { idempotency?: IdempotencyStore },
): OperationTable {
  const version = ctx.config.serviceVersion;
  const { idempotency } = deps;

  const revertOnce = (store: IdempotencyStore, req: OperationRequest): Promise<OperationResult> =>
    idempotentWrite(store, req, {
      run: (recorded) => revertBatch(ctx, req.principal, req.params.branch_id, req.body, recorded),
      present: (result: RevertResult) => presentRevert(result, version),
      requireAccess: () => requireApplyAccess(ctx, req.principal, req.params.branch_id),
      isReplayable,
    });

  return {
    ...(idempotency && { revertBranch: (req: OperationRequest) => revertOnce(idempotency, req) }),
  };
}
