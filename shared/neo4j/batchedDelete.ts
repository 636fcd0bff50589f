/**
 * A batched delete: a statement kept whole that matches what it removes and deletes it
 * `CALL (x) { DETACH DELETE x } IN TRANSACTIONS OF 1000 ROWS`, answering
 * `count(*) AS deleted`. Run auto-commit (Executor.autoCommit), each batch commits on
 * its own: a delete of any size never holds locks the API's reads and writes would wait
 * on, and a delete cut short leaves what it had not reached for a rerun. The background
 * purges (services/purge and the purge function each service gives it for its own
 * records) run their deletes through countDeleted.
 */
import type { Executor } from './executor';
import type { NamedQuery, Params } from './namedQuery';

/** Runs one batched delete and answers how many rows it removed. */
export async function countDeleted(
  executor: Executor,
  query: NamedQuery,
  params: Params,
): Promise<number> {
  const rows = await executor.autoCommit<{ deleted: number }>(query, params);
  return rows[0]?.deleted ?? 0;
}

/**
 * How every batched delete ends (`x` what its MATCH found; a relationship is deleted
 * with `DELETE`): the rows go 1000 a transaction, and the statement answers how many.
 * services/purge/store/purgeStatements.spec.ts finds it in every purge statement.
 */
export function batchedDeleteTail(x = 'x', remove: 'DETACH DELETE' | 'DELETE' = 'DETACH DELETE') {
  return `CALL (${x}) {
            ${remove} ${x}
          } IN TRANSACTIONS OF ${BATCH_ROWS} ROWS
          RETURN count(*) AS deleted`;
}

/** Rows a batched delete removes in each of its transactions. */
export const BATCH_ROWS = 1000;
