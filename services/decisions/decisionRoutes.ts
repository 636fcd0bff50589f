/** HTTP operations of the decisions service: parse, call the command, present. */
import { ok, OperationTable } from '../../shared/http/operation';
import type { ServiceContext } from '../../shared/http/serviceContext';
import { getDecision } from './commands/getDecision';
import { listDecisions } from './commands/listDecisions';
import { DECISION_PAGE_DEFAULT } from './decisionRecord';
import { presentDecision } from './decisionPresenter';

/** `?state=a&state=b` arrives as an array, a single `?state=a` possibly as a string. */
function stateList(raw: unknown): string[] | undefined {
  if (raw === undefined) return undefined;
  return (Array.isArray(raw) ? raw : [raw]).map((s) => String(s));
}

export function decisionRoutes(ctx: ServiceContext): OperationTable {
  const version = ctx.config.serviceVersion;
  return {
    listDecisions: async (req) => {
      const projectId = String(req.query.project_id).toLowerCase(); // ids are stored lower case
      const limit = Number(req.query.limit ?? DECISION_PAGE_DEFAULT);
      const offset = Number(req.query.offset ?? 0);
      const page = await listDecisions(ctx, req.principal, {
        projectId,
        states: stateList(req.query.state),
        limit,
        offset,
      });
      return ok({
        decisions: page.decisions.map(presentDecision),
        filters: { state: page.states },
        has_more: page.hasMore,
        limit,
        offset,
        project_id: projectId,
        version,
      });
    },

    getDecision: async (req) => {
      const decision = await getDecision(ctx, req.principal, req.params.decision_id);
      return ok({ decision: presentDecision(decision), project_id: decision.project_id, version });
    },
  };
}
