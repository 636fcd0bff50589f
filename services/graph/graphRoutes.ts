/** HTTP operations of the graph service: parse, call the command, present. */
import {
  DeltaError,
  DomainError,
  EdgeNotFoundError,
  NodeNotFoundError,
  VersionConflictError,
} from '../../shared/errors/domainErrors';
import {
  ok,
  OperationRequest,
  OperationResult,
  OperationTable,
  streamed,
} from '../../shared/http/operation';
import type { ServiceContext } from '../../shared/http/serviceContext';
import { presentBranchRef } from '../branches';
import { applyDeltas, ApplyResult, requireApplyAccess } from './commands/applyDeltas';
import { GraphRead, readBranchGraph, readMainGraph } from './commands/readGraph';
import { writeGraphStream } from './graphStream';
import { validateDeltas } from './commands/validateDeltas';
import type { IdempotencyStore } from './idempotency';
import { idempotentWrite } from './idempotentWrite';
import { graphVersion } from './viewResolver';
import { presentEdge, presentNode } from './wirePresenter';

/** A full read's answer (GraphResponse): streamed, but for a discarded branch's empty one. */
function answerGraph(ctx: ServiceContext, read: GraphRead, version: string): OperationResult {
  const envelope = {
    branch: presentBranchRef(read.branch),
    project_id: read.branch.project_id,
    version,
  };
  if ('view' in read) {
    const { view, head } = read;
    return streamed((out) => writeGraphStream(ctx.executor, view, envelope, out, head));
  }
  return ok({
    branch: envelope.branch,
    edges: read.edges.map(presentEdge),
    nodes: read.nodes.map(presentNode),
    project_id: envelope.project_id,
    version,
  });
}

function presentApply(result: ApplyResult, version: string) {
  return {
    applied: result.applied,
    positions_applied: result.positionsApplied,
    branch: presentBranchRef(result.branch),
    project_id: result.branch.project_id,
    version,
  };
}

/** Answers that reached the apply step and are kept for replay. */
function isReplayable(error: unknown): error is DomainError {
  return (
    error instanceof DeltaError ||
    error instanceof NodeNotFoundError ||
    error instanceof EdgeNotFoundError ||
    error instanceof VersionConflictError
  );
}

/**
 * `idempotency`: the store of recorded Idempotency-Keys. A process without one (it
 * does not serve applyDeltas, e.g. the graph-read process of separate-process
 * mode) gets the other operations only.
 */
export function graphRoutes(
  ctx: ServiceContext,
  deps: { idempotency?: IdempotencyStore },
): OperationTable {
  const version = ctx.config.serviceVersion;
  const { idempotency } = deps;

  const applyOnce = (store: IdempotencyStore, req: OperationRequest): Promise<OperationResult> =>
    idempotentWrite(store, req, {
      run: (recorded) => applyDeltas(ctx, req.principal, req.params.branch_id, req.body, recorded),
      present: (result: ApplyResult) => presentApply(result, version),
      requireAccess: () => requireApplyAccess(ctx, req.principal, req.params.branch_id),
      isReplayable,
    });

  return {
    getMainGraph: async (req) =>
      answerGraph(
        ctx,
        await readMainGraph(ctx, req.principal, req.params.project_id, graphVersion(req)),
        version,
      ),

    getBranchGraph: async (req) =>
      answerGraph(
        ctx,
        await readBranchGraph(ctx, req.principal, req.params.branch_id, graphVersion(req)),
        version,
      ),

    validateDeltas: async (req) => {
      const result = await validateDeltas(ctx, req.principal, req.params.branch_id, req.body);
      return ok({
        branch: presentBranchRef(result.branch),
        findings: result.findings,
        truncated: result.truncated,
        project_id: result.branch.project_id,
        valid: result.valid,
        version,
      });
    },

    ...(idempotency && { applyDeltas: (req: OperationRequest) => applyOnce(idempotency, req) }),
  };
}
