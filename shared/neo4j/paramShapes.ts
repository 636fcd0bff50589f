/**
 * Neo4j keeps the plan of a statement by its text and by the types of its parameters: a
 * list of strings, an empty list and null are three types, so a statement sent each of
 * them is planned three times. A pinned statement (namedQuery.ts pinnedCypher) is large:
 * planning one takes seconds of Neo4j's CPU on a small machine, spent in the caller's
 * transaction (a batch's holds its branch's write lock meanwhile), once per shape of its
 * parameters after each start of Neo4j. Measured on a 2-core machine: the batch's facts
 * read (prefetchAddRun) planned again in 2.8 to 4.5 s each time one of its id lists
 * went from empty to not, or a map to null.
 *
 * So each parameter of a pinned statement keeps one type from call to call: a string, a
 * number, a boolean, a map, or a list of maps (which Neo4j types as it types an empty
 * list). Lists of ids and values that may be null travel inside a map parameter, whose
 * content Neo4j does not look into when it finds a plan (measured: the same statement with
 * its id lists in one map, sent empty and full in turns, was planned once).
 */
import type { Logger } from '../logging/logger';
import { isPinned, NamedQuery, Params } from './namedQuery';

/** Whether `value` is a plain map (a parameter Neo4j types as MAP, whatever it holds). */
const isMap = (value: unknown): boolean =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  Object.getPrototypeOf(value) === Object.prototype;

/**
 * The names of the parameters of `params` whose type may change from call to call (with
 * why), for a pinned statement: null or undefined, or a list holding anything but maps.
 */
export function unstableParams(params: Params): string[] {
  const unstable: string[] = [];
  for (const [name, value] of Object.entries(params)) {
    if (value === null || value === undefined) unstable.push(`${name} (null)`);
    else if (Array.isArray(value) && !value.every(isMap))
      unstable.push(`${name} (a list of values)`);
  }
  return unstable;
}

/** What the executor does when a pinned statement is sent an unstable parameter. */
export type UnstableParamsPolicy = 'refuse' | 'warn';

/** Checks the parameters of a statement before it is sent (the executor's runners). */
export type ParamsCheck = (query: NamedQuery, params: Params) => void;

/**
 * The check of a pinned statement's parameters under `policy`: `refuse` throws (a defect
 * of the caller, never of the request), `warn` logs each statement once.
 */
export function pinnedParamsCheck(policy: UnstableParamsPolicy, logger: Logger): ParamsCheck {
  const warned = new Set<string>();
  return (query, params) => {
    if (!isPinned(query)) return;
    const unstable = unstableParams(params);
    if (unstable.length === 0) return;
    const message =
      `pinned statement ${query.name} was sent parameters whose type varies from call to ` +
      `call: ${unstable.join(', ')}; each shape costs Neo4j a plan (shared/neo4j/paramShapes.ts)`;
    if (policy === 'refuse') throw new Error(message);
    if (warned.has(query.name)) return;
    warned.add(query.name);
    logger.warn({ query: query.name, unstable }, message);
  };
}
