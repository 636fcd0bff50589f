/**
 * What a Neo4j failure means to a caller of the API: the one reading of the driver's
 * status codes. The Executor asks it about every failure and throws the typed domain
 * error it names (so no driver error reaches a route), and reacts to the two kinds that
 * concern the process as well: an unreachable database closes the availability gate,
 * and a transaction timeout is worth a warning.
 */
import type { Neo4jError } from 'neo4j-driver';
import {
  ConflictError,
  DomainError,
  RequestValidationError,
  ServiceUnavailableError,
} from '../errors/domainErrors';
import { BOOKMARK_HEADER } from './graphBookmarks';

const TIMEOUT_CODES = new Set([
  'Neo.ClientError.Transaction.TransactionTimedOut',
  'Neo.ClientError.Transaction.TransactionTimedOutClientConfiguration',
]);

/**
 * The database ended the transaction before it finished: terminated by an operator or
 * by the server (a lock wait cut short when its transaction ran out of time is
 * LockClientStopped). Nothing of it was committed and the same request may succeed later.
 */
const TERMINATED_CODES = new Set([
  'Neo.ClientError.Transaction.Terminated',
  'Neo.TransientError.Transaction.Terminated',
  'Neo.ClientError.Transaction.LockClientStopped',
  'Neo.TransientError.Transaction.LockClientStopped',
]);

const UNAVAILABLE_CODES = new Set(['ServiceUnavailable', 'SessionExpired', 'ECONNREFUSED']);

/** The Neo4j status code of a driver error (or a socket's error code), if it has one. */
export function neo4jCode(error: unknown): string | undefined {
  const code = (error as Neo4jError | { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

export interface Neo4jFailure {
  error: DomainError;
  /** The database cannot be reached (the process should stop sending it work for a while). */
  unavailable?: true;
  /** The transaction ran past the server's limit. */
  timedOut?: true;
}

/** The domain error a Neo4j failure stands for, or undefined when it is not one we know. */
export function neo4jFailure(error: unknown, timeoutMs: number): Neo4jFailure | undefined {
  const code = neo4jCode(error) ?? '';
  // the member serving the read did not reach the bookmark in time: retry later
  if (code === 'Neo.TransientError.Transaction.BookmarkTimeout') {
    return { error: new ServiceUnavailableError('the graph database is catching up, retry later') };
  }
  if (code.startsWith('Neo.ClientError.Transaction.InvalidBookmark')) {
    return {
      error: new RequestValidationError([
        {
          loc: ['header', BOOKMARK_HEADER],
          msg: 'the graph database does not know this bookmark',
          type: 'value_error',
          input: null,
        },
      ]),
    };
  }
  if (
    UNAVAILABLE_CODES.has(code) ||
    code.startsWith('Neo.TransientError.General.DatabaseUnavailable')
  ) {
    return {
      error: new ServiceUnavailableError('the graph database is unavailable, retry later'),
      unavailable: true,
    };
  }
  if (TIMEOUT_CODES.has(code)) {
    return {
      error: new ServiceUnavailableError(
        `the request needed longer than the ${timeoutMs} ms the graph database allows one transaction; nothing was changed`,
      ),
      timedOut: true,
    };
  }
  if (TERMINATED_CODES.has(code)) {
    return {
      error: new ServiceUnavailableError(
        'the graph database ended the transaction before it finished (it ran out of time or was terminated); nothing was changed, retry later',
      ),
    };
  }
  // a uniqueness rule of the schema refused the write (two writers raced for one id):
  // nothing was written, and the caller learns which kind of clash without our Cypher
  if (code === 'Neo.ClientError.Schema.ConstraintValidationFailed') {
    return {
      error: new ConflictError(
        'constraint_violation',
        'the write conflicts with an existing record with the same identity; nothing was changed',
      ),
    };
  }
  return undefined;
}
