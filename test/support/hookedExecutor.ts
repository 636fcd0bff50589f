/**
 * An executor that runs a test's hook just before one of its write transactions, for
 * tests of what a long write must recheck when something changes between its
 * transactions (a staged merge demoted or archived, an import stage swept).
 */
import type { Executor } from '../../shared/neo4j/executor';

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
