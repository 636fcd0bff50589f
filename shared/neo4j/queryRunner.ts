/**
 * The QueryRunner the executor hands to transaction work: named queries run in a
 * driver transaction, records turned into plain objects, and every query's duration
 * reported to `observe` (the executor's metrics and slow-query log), failed or not.
 */
import type { ManagedTransaction } from 'neo4j-driver';
import type { NamedQuery, Params, QueryRunner, Row } from './namedQuery';
import type { StatementSpan } from '../telemetry/statementSpans';

/** Called after each query with its name, its start (performance.now()) and whether it succeeded. */
export type QueryObserver = (name: string, started: number, ok: boolean) => void;

/** Starts the trace span of one statement (statementSpans.ts); absent when tracing is off. */
export type StatementTracer = (name: string) => StatementSpan;

/**
 * Starts a query (`start` calls the driver's run) without the driver's call-site stack.
 * The driver captures a formatted stack trace for every query it starts, to put on a
 * failure later; with source maps on (tsx) that took about 0.5 ms of CPU per 10-delta
 * batch in a profile, paid by every query for the rare failure the executor does not map
 * to a domain error. Such a failure names its query instead (nameFailure). The run call
 * is synchronous up to the capture, so the limit is back before any other code runs.
 */
export function withoutDriverStack<T>(start: () => T): T {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return start();
  } finally {
    Error.stackTraceLimit = limit;
  }
}

/** Names the query a driver failure came from (`query` on the error), once. */
export function nameFailure(error: unknown, query: NamedQuery): void {
  if (error instanceof Error && Object.isExtensible(error) && !('query' in error))
    Object.assign(error, { query: query.name });
}

function startQuery(tx: Pick<ManagedTransaction, 'run'>, query: NamedQuery, params: Params) {
  return withoutDriverStack(() => tx.run(query.text, params));
}

export function queryRunnerOf(
  tx: Pick<ManagedTransaction, 'run'>,
  observe: QueryObserver,
  traceStatement?: StatementTracer,
): QueryRunner {
  const run = async <R extends Row>(query: NamedQuery, params: Params = {}): Promise<R[]> => {
    const started = performance.now();
    const span = traceStatement?.(query.name);
    let ok = false;
    let failure: unknown;
    let database: string | undefined;
    try {
      const result = await startQuery(tx, query, params);
      ok = true;
      database = result.summary.database.name ?? undefined;
      return result.records.map((r) => r.toObject() as R);
    } catch (error) {
      failure = error;
      nameFailure(error, query);
      throw error;
    } finally {
      observe(query.name, started, ok);
      span?.end(failure, database);
    }
  };
  const each = async <R extends Row>(
    query: NamedQuery,
    params: Params,
    onRow: (row: R) => Promise<void> | void,
  ): Promise<number> => {
    const started = performance.now();
    const span = traceStatement?.(query.name);
    let ok = false;
    let failure: unknown;
    let count = 0;
    try {
      // the driver pulls records in batches as the loop asks for them
      for await (const record of startQuery(tx, query, params)) {
        await onRow(record.toObject() as R);
        count += 1;
      }
      ok = true;
      return count;
    } catch (error) {
      failure = error;
      nameFailure(error, query);
      throw error;
    } finally {
      observe(query.name, started, ok);
      span?.end(failure);
    }
  };
  return {
    run,
    each,
    one: async <R extends Row>(query: NamedQuery, params: Params = {}): Promise<R | undefined> => {
      const rows = await run<R>(query, params);
      return rows[0];
    },
  };
}
