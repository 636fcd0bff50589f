/**
 * Validation of one ingested decision: a DecisionOut-shaped object in any known
 * state. Unknown keys are dropped; optional nullable fields may be omitted (stored
 * as null). Every
 * problem is reported, so a rejected record says everything that is wrong with it.
 */
import { DecisionRecord, DecisionState, KNOWN_STATES } from './decisionRecord';

export type ParsedDecision =
  { ok: true; record: DecisionRecord } | { ok: false; problems: string[] };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/i;
const SERVED_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

type Fields = Record<string, unknown>;

function isObject(value: unknown): value is Fields {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

class Reader {
  readonly problems: string[] = [];
  constructor(private readonly fields: Fields) {}

  uuid(name: string): string {
    const value = this.fields[name];
    if (typeof value === 'string' && UUID.test(value)) return value.toLowerCase();
    this.problems.push(`${name} ${value === undefined ? 'is required' : 'must be a uuid'}`);
    return '';
  }

  /** An optional field: null when absent or null, `read(value)` when it accepts the value. */
  private nullable<T>(
    name: string,
    what: string,
    read: (value: unknown) => T | undefined,
  ): T | null {
    const value = this.fields[name];
    if (value === undefined || value === null) return null;
    const accepted = read(value);
    if (accepted !== undefined) return accepted;
    this.problems.push(`${name} must be ${what} or null`);
    return null;
  }

  nullableUuid(name: string): string | null {
    return this.nullable(name, 'a uuid', (v) =>
      typeof v === 'string' && UUID.test(v) ? v.toLowerCase() : undefined,
    );
  }

  nullableString(name: string): string | null {
    return this.nullable(name, 'a string', (v) => (typeof v === 'string' ? v : undefined));
  }

  nullableBoolean(name: string): boolean | null {
    return this.nullable(name, 'a boolean', (v) => (typeof v === 'boolean' ? v : undefined));
  }

  nullableStringList(name: string): string[] | null {
    return this.nullable(name, 'an array of strings', (v) =>
      Array.isArray(v) && v.every((x) => typeof x === 'string') ? (v as string[]) : undefined,
    );
  }

  state(): DecisionState {
    const value = this.fields.state;
    if (typeof value === 'string' && KNOWN_STATES.includes(value)) return value as DecisionState;
    this.problems.push(
      `state ${value === undefined ? 'is required' : 'must be one of'} (${KNOWN_STATES.join(', ')})`,
    );
    return 'captured';
  }

  anchor(): { type: string; id: string | null } {
    const value = this.fields.anchor_ref;
    if (!isObject(value)) {
      this.problems.push(`anchor_ref ${value === undefined ? 'is required' : 'must be an object'}`);
      return { type: '', id: null };
    }
    const type = value.type;
    if (typeof type !== 'string' || type.length === 0) {
      this.problems.push('anchor_ref.type must be a non-empty string');
    }
    const id = value.id;
    if (id !== undefined && id !== null && typeof id !== 'string') {
      this.problems.push('anchor_ref.id must be a string or null');
    }
    return { type: typeof type === 'string' ? type : '', id: typeof id === 'string' ? id : null };
  }

  /** RFC 3339, stored in the served form: UTC with milliseconds. */
  timestamp(name: string): string {
    const value = this.fields[name];
    if (typeof value === 'string' && RFC3339.test(value)) {
      const time = Date.parse(value);
      const served = Number.isNaN(time) ? '' : new Date(time).toISOString();
      if (SERVED_TIMESTAMP.test(served)) return served;
    }
    this.problems.push(
      `${name} ${value === undefined ? 'is required' : 'must be an RFC 3339 timestamp'}`,
    );
    return '';
  }
}

/**
 * Checks one record. `projectId`, when given (graphctl --project), fills a
 * missing project_id and must equal a present one.
 */
export function parseDecision(raw: unknown, options: { projectId?: string } = {}): ParsedDecision {
  if (!isObject(raw)) return { ok: false, problems: ['a decision must be a JSON object'] };
  const fields: Fields =
    options.projectId !== undefined && raw.project_id === undefined
      ? { ...raw, project_id: options.projectId }
      : raw;
  const read = new Reader(fields);
  const anchor = read.anchor();
  const record: DecisionRecord = {
    id: read.uuid('id'),
    project_id: read.uuid('project_id'),
    state: read.state(),
    anchor_type: anchor.type,
    anchor_id: anchor.id,
    parent_decision_id: read.nullableUuid('parent_decision_id'),
    superseded_by: read.nullableUuid('superseded_by'),
    resulting_node_ids: read.nullableStringList('resulting_node_ids'),
    retirement_reason: read.nullableString('retirement_reason'),
    applied: read.nullableBoolean('applied'),
    annotations: read.nullableString('annotations'),
    capture_text: read.nullableString('capture_text'),
    check: read.nullableString('check'),
    captured_at: read.timestamp('captured_at'),
  };
  if (
    options.projectId !== undefined &&
    record.project_id !== '' &&
    record.project_id !== options.projectId.toLowerCase()
  ) {
    read.problems.push(
      `project_id ${record.project_id} differs from --project ${options.projectId}`,
    );
  }
  return read.problems.length > 0 ? { ok: false, problems: read.problems } : { ok: true, record };
}
