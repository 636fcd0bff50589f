/**
 * The QueryRunner the executor hands to transaction work: named queries run in a
 * driver transaction, records turned into plain objects, and every query's duration
 * reported to `observe` (the executor's metrics and slow-query log), failed or not.
 */
import type { ManagedTransaction, ResultSummary } from 'neo4j-driver';
import type { NamedQuery, Params, QueryRunner, Row } from './namedQuery';
import type { StatementSpan } from '../telemetry/statementSpans';
import type { ParamsCheck } from './paramShapes';

/**
 * Called after each query with its name, its start (performance.now()), whether it
 * succeeded and, when it did, the time Neo4j reports it spent on it (serverMsOf).
 */
export type QueryObserver = (name: string, started: number, ok: boolean, serverMs?: number) => void;

/**
 * The milliseconds Neo4j spent on a query, by its own account: until its first record
 * was available (planning, lock waits and execution up to there) plus until the last was
 * consumed. Against the time the caller waited, it tells a slow statement from a slow
 * caller: a service whose event loop is busy, or a network in between, makes the wait
 * long while Neo4j's share stays short.
 */
export function serverMsOf(
  summary: Pick<ResultSummary, 'resultAvailableAfter' | 'resultConsumedAfter'>,
): number {
  return Number(summary.resultAvailableAfter) + Number(summary.resultConsumedAfter);
}

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
function nameFailure(error: unknown, query: NamedQuery): void {
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
  checkParams?: ParamsCheck,
): QueryRunner {
  const run = async <R extends Row>(query: NamedQuery, params: Params = {}): Promise<R[]> => {
    checkParams?.(query, params);
    const started = performance.now();
    const span = traceStatement?.(query.name);
    let ok = false;
    let failure: unknown;
    let database: string | undefined;
    let serverMs: number | undefined;
    try {
      const result = await startQuery(tx, query, params);
      ok = true;
      database = result.summary.database.name ?? undefined;
      serverMs = serverMsOf(result.summary);
      return result.records.map((r) => r.toObject() as R);
    } catch (error) {
      failure = error;
      nameFailure(error, query);
      throw error;
    } finally {
      observe(query.name, started, ok, serverMs);
      span?.end(failure, database);
    }
  };
  const each = async <R extends Row>(
    query: NamedQuery,
    params: Params,
    onRow: (row: R) => Promise<void> | void,
  ): Promise<number> => {
    checkParams?.(query, params);
    const started = performance.now();
    const span = traceStatement?.(query.name);
    let ok = false;
    let failure: unknown;
    let count = 0;
    let serverMs: number | undefined;
    try {
      const result = startQuery(tx, query, params);
      // the driver pulls records in batches as the loop asks for them
      for await (const record of result) {
        await onRow(record.toObject() as R);
        count += 1;
      }
      ok = true;
      serverMs = serverMsOf(await result.summary());
      return count;
    } catch (error) {
      failure = error;
      nameFailure(error, query);
      throw error;
    } finally {
      observe(query.name, started, ok, serverMs);
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
