/**
 * The operation handlers of the domain services, built by each service's route
 * factory from what the process really has. A process asks only for the
 * operations it serves (every service operation in process; its own in a
 * separate-process service process); a handler the registry names but no factory
 * builds fails start-up.
 */
import type { OperationTable } from '../../shared/http/operation';
import type { ServiceContext } from '../../shared/http/serviceContext';
import { branchRoutes } from '../branches';
import { decisionRoutes } from '../decisions';
import {
  forkContent,
  graphRoutes,
  historyRoutes,
  IdempotencyStore,
  revertRoutes,
  scopedReadRoutes,
} from '../graph';
import { graphFileRoutes } from '../graphfile';
import { mergeRoutes } from '../merge';
import { projectRoutes } from '../projects';
import { feedRoutes } from '../feed';
import { closeOnDiscard, reviewGate, reviewRoutes } from '../reviews';
import { webhookRoutes } from '../webhooks';

export interface HandlerDeps {
  ctx: ServiceContext;
  /** Recorded Idempotency-Keys (Redis); absent where no served operation takes one. */
  idempotency?: IdempotencyStore;
}

type RouteFactory = (deps: HandlerDeps) => OperationTable;

const ROUTE_FACTORIES: readonly RouteFactory[] = [
  ({ ctx }) => projectRoutes(ctx),
  ({ ctx }) => decisionRoutes(ctx),
  ({ ctx }) => branchRoutes(ctx, { forkContent, onDiscard: closeOnDiscard }),
  ({ ctx, idempotency }) => graphRoutes(ctx, { idempotency }),
  ({ ctx, idempotency }) => revertRoutes(ctx, { idempotency }),
  ({ ctx }) => scopedReadRoutes(ctx),
  ({ ctx }) => historyRoutes(ctx),
  ({ ctx, idempotency }) => mergeRoutes(ctx, { gate: reviewGate, idempotency }),
  ({ ctx }) => graphFileRoutes(ctx),
  ({ ctx }) => reviewRoutes(ctx),
  ({ ctx }) => feedRoutes(ctx),
  ({ ctx }) => webhookRoutes(ctx),
];

/** The handlers of `operationIds`; throws when one has none. */
export function operationHandlers(
  deps: HandlerDeps,
  operationIds: readonly string[],
): OperationTable {
  const built: OperationTable = Object.assign({}, ...ROUTE_FACTORIES.map((make) => make(deps)));
  const missing = operationIds.filter((id) => !built[id]);
  if (missing.length > 0)
    throw new Error(`no route factory builds a handler for ${missing.join(', ')}`);
  return Object.fromEntries(operationIds.map((id) => [id, built[id]]));
}
