/**
 * Maps stored Change nodes to StructuralChange (issue 5 §5), field by field. The
 * deltas are shown after parse-time normalisation (deltaWire.ts): the wire shape
 * the batch was applied with, empty strings of §2.1.5 already null.
 */
import type { components } from '../../shared/api/openapi.generated';
import type { ChangeRecord } from './commands/listChanges';
import { parseRecordedDeltas, toWireDelta } from './deltaWire';

export type StructuralChangeOut = components['schemas']['StructuralChange'];

export function presentChange(change: ChangeRecord): StructuralChangeOut {
  const kind = change.kind ?? 'batch';
  return {
    version: change.version,
    actor: change.actor_id,
    created_at: change.created_at,
    deltas: parseRecordedDeltas(change.deltas).map(toWireDelta),
    idempotency_key: change.idempotency_key ?? null,
    kind,
    merged_branch_id: kind === 'merge' ? (change.merged_branch_id ?? null) : null,
    mode: kind === 'merge' ? (change.mode ?? null) : null,
  };
}
