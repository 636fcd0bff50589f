/**
 * A decision as stored and the state rules of the ledger: settled states are served, captured and
 * interviewing are stored but never served.
 *
 *   (:Decision {id, project_id, state, anchor_type, anchor_id, parent_decision_id,
 *               superseded_by, resulting_node_ids, retirement_reason, applied,
 *               annotations, capture_text, check, captured_at, ingested_at})
 */

export const SETTLED_STATES = ['accepted', 'rejected', 'superseded', 'retired'] as const;
export const UNSETTLED_STATES = ['captured', 'interviewing'] as const;
/** Every state ingestion accepts; anything else is an invalid record. */
export const KNOWN_STATES: readonly string[] = [...SETTLED_STATES, ...UNSETTLED_STATES];

export type SettledState = (typeof SETTLED_STATES)[number];
export type DecisionState = SettledState | (typeof UNSETTLED_STATES)[number];

export function isSettled(state: string): state is SettledState {
  return (SETTLED_STATES as readonly string[]).includes(state);
}

export interface DecisionRecord {
  id: string;
  project_id: string;
  state: DecisionState;
  anchor_type: string;
  anchor_id: string | null;
  parent_decision_id: string | null;
  superseded_by: string | null;
  resulting_node_ids: string[] | null;
  retirement_reason: string | null;
  applied: boolean | null;
  annotations: string | null;
  capture_text: string | null;
  check: string | null;
  /** RFC 3339 UTC with milliseconds: sorts as a string. */
  captured_at: string;
}

/**
 * Page size of listDecisions when the caller gives no limit (the OpenAPI document
 * bounds the limit it may give, and request validation enforces that).
 */
export const DECISION_PAGE_DEFAULT = 50;
