/** Maps stored decisions to DecisionOut, field by field; every key is present. */
import type { components } from '../../shared/api/openapi.generated';
import type { DecisionRecord } from './decisionRecord';

export type DecisionOut = components['schemas']['DecisionOut'];

/** Only settled decisions reach the presenter (commands filter the others out). */
export function presentDecision(decision: DecisionRecord): DecisionOut {
  return {
    id: decision.id,
    project_id: decision.project_id,
    state: decision.state as DecisionOut['state'],
    anchor_ref: { type: decision.anchor_type, id: decision.anchor_id ?? null },
    parent_decision_id: decision.parent_decision_id ?? null,
    superseded_by: decision.superseded_by ?? null,
    resulting_node_ids: decision.resulting_node_ids ?? null,
    retirement_reason: decision.retirement_reason ?? null,
    applied: decision.applied ?? null,
    annotations: decision.annotations ?? null,
    capture_text: decision.capture_text ?? null,
    check: decision.check ?? null,
    captured_at: decision.captured_at,
  };
}
