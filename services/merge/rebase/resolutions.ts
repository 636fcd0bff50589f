/**
 * The resolutions of a rebase (rebaseBranch, ConflictResolution): each names one
 * conflict as the merge preview lists it (reason, entity kind, entity id, and the field
 * where the conflict is about fields) and chooses main's side, the branch's, or a value.
 * A conflict of several fields (modified_on_both) is resolved field by field; a delete
 * conflict as a whole. Which choices apply to which reason is written here once
 * (CHOICES); a resolution that names no conflict is 422 unknown_conflict, one that does
 * not apply (or resolves a conflict twice) 422 invalid_resolution, and the conflicts
 * nothing resolves are answered by the caller as 409 merge_conflict.
 */
import type { components } from '../../../shared/api/openapi.generated';
import { DeltaError, InvalidInputError } from '../../../shared/errors/domainErrors';
import { parseDeltaBatch } from '../../graph';
import type { MergeConflict } from '../conflicts/conflictList';

export type Resolution = components['schemas']['ConflictResolution'];
export type Choice = Resolution['choice'];

/** The choices each conflict reason takes; a reason not listed (a replay error) takes none. */
const CHOICES: Record<string, readonly Choice[]> = {
  modified_on_both: ['main', 'branch', 'value'],
  reparent_conflict: ['main', 'branch', 'value'],
  rewired_on_both: ['main', 'branch', 'value'],
  name_collision: ['value'],
  deleted_on_main: ['main', 'branch', 'value'],
  deleted_on_branch_modified_on_main: ['main', 'branch', 'value'],
};

/** Reasons resolved field by field (each field of the conflict its own resolution). */
const BY_FIELD = new Set([
  'modified_on_both',
  'reparent_conflict',
  'rewired_on_both',
  'name_collision',
]);

/** One thing to resolve: a conflict, and one of its fields where it is resolved by field. */
export interface ConflictUnit {
  conflict: MergeConflict;
  field: string | null;
}

/** A unit's key: reason, entity kind, entity id, field. */
export function unitKey(
  reason: string,
  kind: string | null,
  id: string | null,
  field: string | null,
): string {
  return [reason, kind ?? '', id ?? '', field ?? ''].join('\u0000');
}

export function unitsOf(conflicts: MergeConflict[]): ConflictUnit[] {
  return conflicts.flatMap((conflict): ConflictUnit[] =>
    BY_FIELD.has(conflict.reason) && conflict.fields.length > 0
      ? conflict.fields.map((field) => ({ conflict, field }))
      : [{ conflict, field: null }],
  );
}

/** A resolution matched to its unit, with its place in the request. */
export interface Chosen {
  unit: ConflictUnit;
  resolution: Resolution;
  index: number;
}

function describe(r: Resolution): string {
  return [r.reason, r.entity_kind, r.entity_id, r.field ?? ''].filter((p) => p !== '').join(' ');
}

/** 422 invalid_resolution for resolutions[index] (`at`: the key refused, e.g. `.value`). */
export function invalidResolution(index: number, message: string, at = ''): InvalidInputError {
  return new InvalidInputError('invalid_resolution', `resolutions[${index}]: ${message}`, {
    resolution_index: index,
    field: `resolutions[${index}]${at}`,
  });
}

/**
 * Matches `resolutions` to the conflicts' units: the chosen ones by key, and the
 * conflicts some unit of which nothing resolves (whole, as the preview lists them).
 */
export function matchResolutions(
  conflicts: MergeConflict[],
  resolutions: readonly Resolution[],
): { chosen: Map<string, Chosen>; left: MergeConflict[] } {
  const units = new Map(
    unitsOf(conflicts).map((u) => [
      unitKey(u.conflict.reason, u.conflict.entity_kind, u.conflict.entity_id, u.field),
      u,
    ]),
  );
  const chosen = new Map<string, Chosen>();
  resolutions.forEach((resolution, index) => {
    const key = unitKey(
      resolution.reason,
      resolution.entity_kind,
      resolution.entity_id,
      resolution.field ?? null,
    );
    const unit = units.get(key);
    if (!unit) {
      throw new InvalidInputError(
        'unknown_conflict',
        `resolutions[${index}] names no conflict of this rebase (${describe(resolution)})`,
        { resolution_index: index, field: `resolutions[${index}]` },
      );
    }
    if (chosen.has(key)) throw invalidResolution(index, 'this conflict is already resolved');
    if (!(CHOICES[unit.conflict.reason] ?? []).includes(resolution.choice)) {
      throw invalidResolution(
        index,
        `choice ${resolution.choice} does not apply to ${unit.conflict.reason}`,
        '.choice',
      );
    }
    if (resolution.choice === 'value' && resolution.value === undefined) {
      throw invalidResolution(index, 'choice value needs a value', '.value');
    }
    chosen.set(key, { unit, resolution, index });
  });
  const left = new Set<MergeConflict>();
  for (const [key, unit] of units) if (!chosen.has(key)) left.add(unit.conflict);
  return { chosen, left: conflicts.filter((c) => left.has(c)) };
}

/** A resolution's value as the node model parses it in `delta`; refused: 422 invalid_resolution at the value. */
export function parsed(
  chosen: Chosen,
  delta: Record<string, unknown>,
  read: (d: never) => unknown,
) {
  try {
    const batch = parseDeltaBatch({ deltas: [delta] }, { maxDeltas: 1, requireVersion: false });
    return read(batch.deltas[0] as never);
  } catch (error) {
    if (error instanceof DeltaError) {
      throw invalidResolution(chosen.index, error.envelope.message, '.value');
    }
    throw error;
  }
}
