/**
 * Executors that tests wrap around the service's: one runs a test's hook just before one
 * of its write transactions, for tests of what a long write must recheck when something
 * changes between its transactions (a staged merge demoted or archived, an import stage
 * swept); one notes every statement sent and its parameters' types, and one answers a
 * read with the test's rows instead of Neo4j's (the plan warm-up's tests).
 */
import type { Executor } from '../../shared/neo4j/executor';
import type { NamedQuery, Params, QueryRunner, Row } from '../../shared/neo4j/namedQuery';

/** `executor`, running `hook` just before its `atCall`-th write transaction. */
export function hookedExecutor(
  executor: Executor,
  atCall: number,
  hook: () => Promise<void>,
): Executor {
  let calls = 0;
  return new Proxy(executor, {
    get(target, property) {
      if (property === 'writeTx')
        return async (work: Parameters<Executor['writeTx']>[0]) => {
          calls += 1;
          if (calls === atCall) await hook();
          return target.writeTx(work);
        };
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** A statement sent, by name, with the type of each of its parameters. */
export interface Sent {
  name: string;
  shape: Record<string, string>;
}

/** The type Neo4j gives a parameter, as far as a plan depends on it. */
function typeOf(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return value.length === 0 ? 'list' : `list of ${typeOf(value[0])}`;
  if (typeof value === 'object') return 'map';
  return typeof value;
}

const shapeOf = (params: Params = {}) =>
  Object.fromEntries(Object.entries(params).map(([name, value]) => [name, typeOf(value)]));

/** `executor`, noting in `sent` every statement sent through it, in order. */
export function noting(executor: Executor, sent: Sent[]): Executor {
  const note = (query: NamedQuery, params?: Params) =>
    sent.push({ name: query.name, shape: shapeOf(params) });
  const runner = (tx: QueryRunner): QueryRunner => ({
    run: (query, params) => (note(query, params), tx.run(query, params)),
    one: (query, params) => (note(query, params), tx.one(query, params)),
    each: (query, params, onRow) => (note(query, params), tx.each(query, params, onRow)),
  });
  return new Proxy(executor, {
    get(target, property) {
      if (property === 'read')
        return (query: NamedQuery, params?: Params) => (
          note(query, params),
          target.read(query, params)
        );
      if (property === 'readTx' || property === 'writeTx')
        return (work: (tx: QueryRunner) => Promise<unknown>) =>
          target[property]((tx) => work(runner(tx)));
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** `executor`, answering each read of `query` with `rows()` instead of sending it. */
export function answering(executor: Executor, query: NamedQuery, rows: () => Row[]): Executor {
  return new Proxy(executor, {
    get(target, property) {
      if (property === 'read')
        return (sent: NamedQuery, params?: Params) =>
          sent.name === query.name ? Promise.resolve(rows()) : target.read(sent, params);
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
