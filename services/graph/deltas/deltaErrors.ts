/** Builds the per-delta 422 envelope: seven keys, always present. */
import { DeltaError, RecoveryHint } from '../../../shared/errors/domainErrors';

export interface DeltaErrorInput {
  error: string;
  message: string;
  field?: string | null;
  index?: number | null;
  type?: string | null;
  entityId?: string | null;
  hint?: RecoveryHint;
}

const DEFAULT_HINT: Record<string, RecoveryHint> = {
  id_collision: 'regenerate_uuid',
  field_not_allowed: 'drop_field',
  source_decisions_immutable: 'drop_field',
};

export function deltaError(input: DeltaErrorInput): DeltaError {
  return new DeltaError({
    error: input.error,
    field: input.field ?? null,
    recovery_hint: input.hint !== undefined ? input.hint : (DEFAULT_HINT[input.error] ?? null),
    delta_index: input.index ?? null,
    delta_type: input.type ?? null,
    entity_id: input.entityId ?? null,
    message: input.message,
  });
}
