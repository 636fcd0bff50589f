/**
 * What the viewer resolves of a merge preview's conflicts with rebaseBranch
 * (ConflictResolution): one unit per conflict, or per field where the conflict is
 * resolved field by field (modified_on_both, reparent_conflict, rewired_on_both,
 * name_collision), the choices its reason takes, and how a unit's chosen state
 * becomes the resolution sent. A reason outside that set (a batch that no longer
 * replays) takes no choice: the branch itself has to change.
 */
import type { Schemas } from '../api';

export type Conflict = Schemas['MergeConflict'];
export type Resolution = Schemas['ConflictResolution'];
export type Choice = Resolution['choice'];

/** How a unit's own value is edited. */
export type Editor = 'text' | 'json' | 'parent' | 'wire' | 'keepDrop';

export interface Unit {
  key: string;
  conflict: Conflict;
  field: string | null;
  /** The sides offered (main's, the branch's), beside the unit's own value. */
  sides: ('main' | 'branch')[];
  editor: Editor | null;
}

export interface UnitState {
  choice: Choice | null;
  /** The raw value: text as typed, JSON text, a parent id ('' for the top level), a wire id, keep/drop. */
  value: string;
}

const BY_FIELD = new Set([
  'modified_on_both',
  'reparent_conflict',
  'rewired_on_both',
  'name_collision',
]);
const DELETES = new Set(['deleted_on_main', 'deleted_on_branch_modified_on_main']);
const PORT_LISTS = new Set(['inputs', 'outputs', 'config']);

function editorOf(c: Conflict, field: string | null): Editor | null {
  if (DELETES.has(c.reason)) return 'keepDrop';
  if (c.reason === 'reparent_conflict') return 'parent';
  if (c.reason === 'rewired_on_both') return 'wire';
  if (c.reason === 'name_collision') return 'text';
  if (c.reason !== 'modified_on_both' || field === null) return null;
  if (PORT_LISTS.has(field)) return 'json';
  const sides = [sideValue(c, 'main', field), sideValue(c, 'branch', field)];
  return sides.every((v) => typeof v === 'string' || v === null) ? 'text' : 'json';
}

function sidesOf(c: Conflict): Unit['sides'] {
  if (c.reason === 'name_collision' || DELETES.has(c.reason)) return [];
  return BY_FIELD.has(c.reason) ? ['main', 'branch'] : [];
}

export function unitKey(c: Conflict, field: string | null): string {
  return [c.reason, c.entity_kind ?? '', c.entity_id ?? '', field ?? ''].join('|');
}

export function unitsOf(conflicts: Conflict[]): Unit[] {
  return conflicts.flatMap((c) => {
    const fields: (string | null)[] =
      BY_FIELD.has(c.reason) && c.fields.length > 0 ? c.fields : [null];
    return fields.map((field) => ({
      key: unitKey(c, field),
      conflict: c,
      field,
      sides: sidesOf(c),
      editor: editorOf(c, field),
    }));
  });
}

/** A side's value of `field`, when that side states it for this entity itself. */
export function sideValue(c: Conflict, side: 'main' | 'branch', field: string): unknown {
  const change = side === 'main' ? c.main_change : c.branch_change;
  const values = change?.values;
  if (!values || !(field in values)) return undefined;
  // a containment cycle or a name collision names main's other entity: not this one's value
  if ('id' in values && values.id !== c.entity_id) return undefined;
  return values[field];
}

/** What a delete conflict's keep and drop mean on each side. */
export function keepSide(c: Conflict): 'main' | 'branch' {
  return c.reason === 'deleted_on_main' ? 'branch' : 'main';
}

/**
 * The value typed for a unit when it starts: the branch's value, as the editor shows it;
 * empty for a new name (the branch's is the one that collides).
 */
export function initialValue(unit: Unit): string {
  if (unit.editor === 'keepDrop' || unit.conflict.reason === 'name_collision') return '';
  const field = unit.field ?? '';
  const branch = sideValue(unit.conflict, 'branch', field);
  if (unit.editor === 'parent') return typeof branch === 'string' ? branch : '';
  if (unit.editor === 'text') return typeof branch === 'string' ? branch : '';
  if (unit.editor === 'json') return branch === undefined ? '' : JSON.stringify(branch);
  return '';
}

/** The resolution a unit's state sends, or why it cannot be sent; null when nothing is chosen. */
export function resolutionOf(
  unit: Unit,
  state: UnitState,
): { resolution: Resolution } | { problem: string } | null {
  if (state.choice === null) return null;
  const c = unit.conflict;
  if (c.entity_kind === null || c.entity_id === null) return { problem: 'names no entity' };
  const base = {
    reason: c.reason,
    entity_kind: c.entity_kind,
    entity_id: c.entity_id,
    ...(unit.field !== null && { field: unit.field }),
  };
  if (state.choice !== 'value') return { resolution: { ...base, choice: state.choice } };
  switch (unit.editor) {
    case 'text':
      return { resolution: { ...base, choice: 'value', value: state.value } };
    case 'parent':
      return { resolution: { ...base, choice: 'value', value: state.value || null } };
    case 'wire':
    case 'keepDrop':
      if (!state.value) return { problem: 'pick one' };
      return { resolution: { ...base, choice: 'value', value: state.value } };
    case 'json':
      try {
        return { resolution: { ...base, choice: 'value', value: JSON.parse(state.value) } };
      } catch {
        return { problem: 'the value is not valid JSON' };
      }
    default:
      return { problem: 'this conflict takes no value' };
  }
}

/**
 * A state per unit that resolves every conflict that can be resolved (main's side, a
 * new name for a collision, main's side of the delete conflicts): what the
 * viewer dry-runs when it opens, only to learn whether this key may rebase.
 */
export function probeStates(units: Unit[]): Map<string, UnitState> {
  const states = new Map<string, UnitState>();
  for (const u of units) {
    if (u.sides.includes('main')) states.set(u.key, { choice: 'main', value: '' });
    else if (u.editor === 'keepDrop')
      states.set(u.key, {
        choice: 'value',
        value: keepSide(u.conflict) === 'main' ? 'keep' : 'drop',
      });
    else if (u.editor === 'text')
      states.set(u.key, {
        choice: 'value',
        value: `${String(sideValue(u.conflict, 'branch', 'name') ?? 'renamed')} (rebased)`,
      });
  }
  return states;
}

/** Shows a side's value in a sentence. */
export function shown(value: unknown): string {
  if (value === undefined) return '';
  if (value === null) return 'none';
  if (typeof value === 'string') return `"${value}"`;
  return JSON.stringify(value);
}
