/** HTTP operations of the graph service: parse, call the command, present. */
import {
  DeltaError,
  DomainError,
  EdgeNotFoundError,
  NodeNotFoundError,
  RequestValidationError,
  VersionConflictError,
} from '../../shared/errors/domainErrors';
import { errorBody } from '../../shared/http/errorResponse';
import { ok, OperationRequest, OperationResult, OperationTable } from '../../shared/http/operation';
import type { ServiceContext } from '../../shared/http/serviceContext';
import { presentBranchRef } from '../branches';
import { applyDeltas, ApplyResult, requireApplyAccess } from './commands/applyDeltas';
import { BranchGraph, readBranchGraph, readMainGraph } from './commands/readGraph';
import { validateDeltas } from './commands/validateDeltas';
import { fingerprint, IdempotencyStore, isValidIdempotencyKey } from './idempotency';
import { presentEdge, presentNode } from './wirePresenter';

function presentGraph(graph: BranchGraph, version: string) {
  return {
    branch: presentBranchRef(graph.branch),
    edges: graph.edges.map(presentEdge),
    nodes: graph.nodes.map(presentNode),
    project_id: graph.branch.project_id,
    version,
  };
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

  async function applyOnce(
    store: IdempotencyStore,
    req: OperationRequest,
  ): Promise<OperationResult> {
    const branchId = req.params.branch_id;
    const key = req.headers['idempotency-key'];
    if (key === undefined) {
      return ok(presentApply(await applyDeltas(ctx, req.principal, branchId, req.body), version));
    }
    if (!isValidIdempotencyKey(key)) {
      throw new RequestValidationError([
        {
          loc: ['header', 'Idempotency-Key'],
          msg: 'Idempotency-Key is 1 to 255 printable ASCII characters',
          type: 'string_pattern_mismatch',
          input: key,
        },
      ]);
    }
    const scope = `${req.principal.userId}:${branchId}`;
    const print = fingerprint(req.body);
    // an existing entry is read only for a caller that may apply this batch itself
    const reservation = await store.reserve(scope, key, print, () =>
      requireApplyAccess(ctx, req.principal, branchId),
    );
    if (reservation.kind === 'replay') {
      return { ...reservation.response, headers: { 'Idempotent-Replayed': 'true' } };
    }
    let response: OperationResult;
    try {
      const result = await applyDeltas(ctx, req.principal, branchId, req.body, {
        key,
        fingerprint: print,
      });
      // Applied before under this key, but Redis had lost the answer: a replay all the same.
      response = result.replayed
        ? { ...ok(presentApply(result, version)), headers: { 'Idempotent-Replayed': 'true' } }
        : ok(presentApply(result, version));
    } catch (error) {
      if (isReplayable(error)) {
        const { status, body } = errorBody(error);
        await store.complete(scope, key, print, { status, body }).catch(() => undefined);
      } else {
        await store.release(scope, key, reservation.token, print);
      }
      throw error;
    }
    await store
      .complete(scope, key, print, { status: response.status, body: response.body })
      .catch((error: unknown) => {
        req.log.warn(
          { err: error },
          'idempotent answer not cached; a retry is answered from the recorded batch',
        );
      });
    return response;
  }

  return {
    getMainGraph: async (req) =>
      ok(presentGraph(await readMainGraph(ctx, req.principal, req.params.project_id), version)),

    getBranchGraph: async (req) =>
      ok(presentGraph(await readBranchGraph(ctx, req.principal, req.params.branch_id), version)),

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
