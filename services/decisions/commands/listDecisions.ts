/**
 * GET /v1/decisions (listDecisions): one page of a project's settled decisions, newest first
 * (captured_at desc, then id desc). Order of checks: project visible (else 404), scope
 * decisions:read (else 403), then the state filter (an unsettled or unknown state: 422
 * state_not_readable).
 */
import { clip, quote } from '../../../shared/text/clip';
import { InvalidInputError } from '../../../shared/errors/domainErrors';
import type { Principal } from '../../../shared/http/principal';
import type { ServiceContext } from '../../../shared/http/serviceContext';
import { requireScope, visibleProject } from '../../identity';
import { DecisionRecord, isSettled, SettledState, SETTLED_STATES } from '../decisionRecord';
import { listDecisionsPage } from '../store/decisionQueries';

export interface DecisionPageQuery {
  projectId: string;
  /** The requested states, or undefined when the query has no state parameter. */
  states: string[] | undefined;
  limit: number;
  offset: number;
}

export interface DecisionPage {
  decisions: DecisionRecord[];
  /** The narrowing applied: the requested states (deduplicated) or every settled state. */
  states: SettledState[];
  hasMore: boolean;
}

/** The states a page may show; throws state_not_readable for anything not served. */
export function readableStates(requested: string[] | undefined): SettledState[] {
  if (requested === undefined) return [...SETTLED_STATES];
  const refused = requested.filter((state) => !isSettled(state));
  if (refused.length > 0) {
    throw new InvalidInputError(
      'state_not_readable',
      `only settled states can be read (${SETTLED_STATES.join(', ')}); not readable: ${refused
        .map((s) => quote(s))
        .join(', ')}`,
      { states: refused.map((s) => clip(s)) },
    );
  }
  return [...new Set(requested as SettledState[])];
}

export async function listDecisions(
  ctx: ServiceContext,
  principal: Principal,
  query: DecisionPageQuery,
): Promise<DecisionPage> {
  return ctx.executor.readTx(async (tx) => {
    await visibleProject(tx, principal, query.projectId);
    requireScope(principal, 'decisions:read');
    const states = readableStates(query.states);
    const rows = await tx.run<{ decision: DecisionRecord }>(listDecisionsPage, {
      projectId: query.projectId,
      states,
      offset: query.offset,
      limit: query.limit,
    });
    return {
      decisions: rows.slice(0, query.limit).map((r) => r.decision),
      states,
      hasMore: rows.length > query.limit,
    };
  });
}
