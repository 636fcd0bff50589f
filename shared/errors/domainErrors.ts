/**
 * Typed domain errors. Domain code throws these and never an HTTP status;
 * the gateway's error middleware is the one place that maps them to a status and
 * writes the `{"detail": ...}` body.
 */

export type Extra = Record<string, unknown>;

export abstract class DomainError extends Error {
  abstract readonly kind: DomainErrorKind;
  constructor(
    readonly code: string,
    message: string,
    readonly extra: Extra = {},
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export type DomainErrorKind =
  | 'unauthenticated'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'invalid'
  | 'request_validation'
  | 'delta'
  | 'too_large'
  | 'rate_limited'
  | 'unavailable';

/** Missing, malformed, unknown or revoked credentials: one body for all, so none can be told apart. */
export class UnauthenticatedError extends DomainError {
  readonly kind = 'unauthenticated';
  constructor() {
    super('not_authenticated', 'not_authenticated');
  }
}

/** A visible resource, a caller lacking a scope or a role. */
export class ForbiddenError extends DomainError {
  readonly kind = 'forbidden';
}

export class InsufficientScopeError extends ForbiddenError {
  constructor(scope: string) {
    super('insufficient_scope', `this credential lacks the scope ${scope}`, {});
  }
}

/** Missing or invisible: the same answer, so a caller cannot learn what exists beyond its reach. */
export class NotFoundError extends DomainError {
  readonly kind = 'not_found';
  constructor(what = 'resource') {
    super('not_found', `${what} not found`);
  }
}

/** A delta names a node that does not exist. */
export class NodeNotFoundError extends DomainError {
  readonly kind = 'not_found';
  constructor(nodeId: string) {
    super('node_not_found', `node ${nodeId} does not exist on this branch`, { node_id: nodeId });
  }
}

/** delete_edge names an edge that does not exist. */
export class EdgeNotFoundError extends DomainError {
  readonly kind = 'not_found';
  constructor(edgeId: string) {
    super('edge_not_found', `edge ${edgeId} does not exist on this branch`, { edge_id: edgeId });
  }
}

/**
 * A read, diff or revert names a version of a line (a branch's or main's) that it never had
 * or whose history is no longer kept; `oldest` and `newest` bound the versions readable now.
 */
export class VersionNotFoundError extends DomainError {
  readonly kind = 'not_found';
  constructor(
    readonly version: number,
    readonly oldest: number,
    readonly newest: number,
  ) {
    super(
      'version_not_found',
      `version ${version} is not readable; readable versions are ${oldest} to ${newest}`,
      { oldest, newest },
    );
  }
}

/** A 409: the request is well formed but the resource's state refuses it (code says why). */
export class ConflictError extends DomainError {
  readonly kind = 'conflict';
}

export class VersionConflictError extends ConflictError {
  constructor(currentVersion: number) {
    super('version_conflict', `the branch is at version ${currentVersion}`, {
      current_version: currentVersion,
    });
  }
}

/** An entity a later batch changed, or built on, after the batch being reverted wrote it. */
export interface RevertConflictEntity {
  kind: 'node' | 'port' | 'edge';
  id: string;
  /** The later branch version that changed it. */
  version: number;
}

const KIND_ORDER = { node: 0, port: 1, edge: 2 };

/**
 * revertBranch refused: later batches changed, or built on, entities the reverted batch
 * wrote, so its inverse would undo their work too. Names every such entity (by kind, then id).
 */
export class RevertConflictError extends ConflictError {
  constructor(version: number, entities: readonly RevertConflictEntity[]) {
    const sorted = [...entities].sort(
      (a, b) => KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
    );
    const count = `${sorted.length} ${sorted.length === 1 ? 'entity' : 'entities'}`;
    super('revert_conflict', `later batches changed ${count} written by version ${version}`, {
      entities: sorted,
    });
  }
}

/** 422 with an object detail (project create, patch no_fields, decisions state filter ...). */
export class InvalidInputError extends DomainError {
  readonly kind = 'invalid';
}

export interface ValidationIssue {
  loc: (string | number)[];
  msg: string;
  type: string;
  ctx?: Record<string, unknown>;
  input?: unknown;
}

/** 422 with the FastAPI-style array detail (HTTPValidationError). */
export class RequestValidationError extends DomainError {
  readonly kind = 'request_validation';
  constructor(readonly issues: ValidationIssue[]) {
    super('request_validation', issues.map((i) => `${i.loc.join('.')}: ${i.msg}`).join('; '));
  }
}

export type RecoveryHint = 'regenerate_uuid' | 'drop_field' | null;

/** The per-delta 422 envelope: seven keys, always present. */
export interface DeltaErrorEnvelope {
  error: string;
  field: string | null;
  recovery_hint: RecoveryHint;
  delta_index: number | null;
  delta_type: string | null;
  entity_id: string | null;
  message: string;
}

export class DeltaError extends DomainError {
  readonly kind = 'delta';
  constructor(readonly envelope: DeltaErrorEnvelope) {
    super(envelope.error, envelope.message);
  }
}

export class PayloadTooLargeError extends DomainError {
  readonly kind = 'too_large';
  constructor(limitBytes: number) {
    super('payload_too_large', `request body exceeds ${limitBytes} bytes`);
  }
}

export class RateLimitedError extends DomainError {
  readonly kind = 'rate_limited';
  constructor(
    readonly retryAfterSeconds: number,
    /** The bucket's window, written as X-RateLimit-Limit/-Remaining/-Reset. */
    readonly window?: { limit: number; remaining: number; reset: number },
  ) {
    super('rate_limited', 'rate_limited');
  }
}

/** A backing store (Neo4j, Redis) cannot answer now; the caller may retry. */
export class ServiceUnavailableError extends DomainError {
  readonly kind = 'unavailable';
  constructor(
    message: string,
    readonly retryAfterSeconds = 5,
  ) {
    super('service_unavailable', message);
  }
}

/**
 * An operator has put the service in maintenance (a backup or restore of the store under
 * way): requests that could write are refused rather than accepted and lost.
 */
export class MaintenanceError extends ServiceUnavailableError {
  constructor(reason: string, retryAfterSeconds: number) {
    super(
      `the service is in maintenance (${reason.slice(0, 64)}): writes are refused until it ends`,
      retryAfterSeconds,
    );
  }
}

/**
 * The caller hung up before its answer: the work it started was cancelled (its Neo4j
 * transaction ended, nothing of it committed after). No one reads the answer; it is a
 * 503 so that a log or a metric never counts it as the service's failure.
 */
export class CallerGoneError extends ServiceUnavailableError {
  constructor() {
    super('the caller hung up before the answer; its work was cancelled');
  }
}
