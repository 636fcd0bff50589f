/**
 * The QueryRunner the executor hands to transaction work: named queries run in a
 * driver transaction, records turned into plain objects, and every query's duration
 * reported to `observe` (the executor's metrics and slow-query log), failed or not.
 */
import type { ManagedTransaction } from 'neo4j-driver';
import type { NamedQuery, Params, QueryRunner, Row } from './namedQuery';

/** Called after each query with its name, its start (performance.now()) and whether it succeeded. */
export type QueryObserver = (name: string, started: number, ok: boolean) => void;

export function queryRunnerOf(
  tx: Pick<ManagedTransaction, 'run'>,
  observe: QueryObserver,
): QueryRunner {
  const run = async <R extends Row>(query: NamedQuery, params: Params = {}): Promise<R[]> => {
    const started = performance.now();
    let ok = false;
    try {
      const result = await tx.run(query.text, params);
      ok = true;
      return result.records.map((r) => r.toObject() as R);
    } finally {
      observe(query.name, started, ok);
    }
  };
  const each = async <R extends Row>(
    query: NamedQuery,
    params: Params,
    onRow: (row: R) => Promise<void> | void,
  ): Promise<number> => {
    const started = performance.now();
    let ok = false;
    let count = 0;
    try {
      // the driver pulls records in batches as the loop asks for them
      for await (const record of tx.run(query.text, params)) {
        await onRow(record.toObject() as R);
        count += 1;
      }
      ok = true;
      return count;
    } finally {
      observe(query.name, started, ok);
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
