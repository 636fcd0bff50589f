/**
 * A Cypher statement with a name. Every query of a service is declared once in that
 * service's store/ folder with $parameters, never built from user input, and run by
 * the Executor, which logs and times it under its name.
 */
export interface NamedQuery {
  readonly name: string;
  readonly text: string;
}

export function cypher(name: string, text: string): NamedQuery {
  return Object.freeze({ name, text: text.trim() });
}

export type Params = Record<string, unknown>;
export type Row = Record<string, unknown>;

/** What a transaction body gets: run named queries, nothing else. */
export interface QueryRunner {
  run<R extends Row = Row>(query: NamedQuery, params?: Params): Promise<R[]>;
  one<R extends Row = Row>(query: NamedQuery, params?: Params): Promise<R | undefined>;
  /**
   * Hands each row to `onRow` as it arrives, the next only once `onRow` has settled:
   * the rows of a large answer are never all held at once. Resolves with their count.
   */
  each<R extends Row = Row>(
    query: NamedQuery,
    params: Params,
    onRow: (row: R) => Promise<void> | void,
  ): Promise<number>;
}
