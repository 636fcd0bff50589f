/**
 * Queries of one transaction sent together: neo4j-driver pipelines them on the
 * transaction's connection, so N independent reads cost about one round trip
 * instead of N. Waits until every one has settled (a transaction must not end with
 * a query still running), then rethrows the first failure in argument order, so a
 * check placed first (say, visibility) wins over what the others found.
 */
export async function pipelined<T extends readonly unknown[]>(works: {
  readonly [K in keyof T]: Promise<T[K]>;
}): Promise<T> {
  const settled = await Promise.allSettled(works as readonly Promise<unknown>[]);
  for (const outcome of settled) if (outcome.status === 'rejected') throw outcome.reason;
  return settled.map((o) => (o as PromiseFulfilledResult<unknown>).value) as unknown as T;
}
