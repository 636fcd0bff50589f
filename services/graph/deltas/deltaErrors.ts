/** Builds the per-delta 422 envelope: seven keys, always present (DeltaErrorBody). */
import { DeltaError, RecoveryHint } from '../../../shared/errors/domainErrors';
import type { Delta } from './deltaTypes';

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

/** The id of the node or wire a delta is about. */
export function entityOf(delta: Delta): string {
  switch (delta.type) {
    case 'add_node':
      return delta.node.id;
    case 'add_edge':
      return delta.edge.id;
    case 'delete_edge':
      return delta.edge_id;
    default:
      return delta.node_id;
  }
}

/**
 * Throws the error of one delta of a batch: `field` is named within the batch
 * (deltas[i].field) and the entity defaults to the one the delta is about.
 */
export function failDelta(
  delta: Delta,
  error: string,
  field: string | null,
  message: string,
  entityId?: string,
): never {
  throw deltaError({
    error,
    message,
    field: field === null ? null : `deltas[${delta.index}].${field}`,
    index: delta.index,
    type: delta.type,
    entityId: entityId ?? entityOf(delta),
  });
}
