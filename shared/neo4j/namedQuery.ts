/**
 * A Cypher statement with a name. Every query of a service is declared once in that
 * service's store/ folder with $parameters, never built from user input, and run by
 * the Executor, which logs and times it under its name. Its text is kept as it is sent
 * (compactCypher.ts: no comments, one space between tokens).
 */
import { compactCypher } from './compactCypher';

export interface NamedQuery {
  readonly name: string;
  readonly text: string;
}

export function cypher(name: string, text: string): NamedQuery {
  return Object.freeze({ name, text: compactCypher(text) });
}

/**
 * A statement kept whole (a store's statements/<name>.cypher, statementFiles.ts): its
 * text as sent, pinned (pinnedQueries) when it starts with the pinning prefix.
 */
export function wholeStatement(name: string, text: string): NamedQuery {
  const query = cypher(name, text);
  if (isPinned(query)) pinned.push(query);
  return query;
}

/**
 * A statement whose plan does not depend on the store's statistics: every node lookup in
 * it names its index (USING INDEX SEEK) or a unique constraint. Cypher keeps its cached
 * plan when the statistics change (`replan=skip`) instead of planning it again each time
 * the store has grown enough, which for a large statement costs seconds of CPU in the
 * transaction that finds the plan stale (a write's latency spike, on a hot path).
 */
export function pinnedCypher(name: string, text: string): NamedQuery {
  const query = cypher(name, `${PINNED_PREFIX}${text}`);
  pinned.push(query);
  return query;
}

const PINNED_PREFIX = 'CYPHER replan=skip ';

/** Whether `query` is pinned (pinnedCypher, or a whole statement with the prefix). */
export const isPinned = (query: NamedQuery): boolean => query.text.startsWith(PINNED_PREFIX);
const pinned: NamedQuery[] = [];

/** The pinnedCypher statements of the modules loaded so far (a test plans each). */
export function pinnedQueries(): readonly NamedQuery[] {
  return pinned;
}

/** The text that plans pinned statement `query` without running it (EXPLAIN). */
export function explainPinned(query: NamedQuery): string {
  return `${PINNED_PREFIX.trim()} EXPLAIN ${query.text.slice(PINNED_PREFIX.length)}`;
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
