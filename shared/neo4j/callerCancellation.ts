/**
 * Work whose caller has gone is cancelled. The process that serves a request (the
 * gateway in process, an owner process in separate-process mode) aborts a signal when
 * the caller hangs up before its answer (hangUpSignal in shared/http), and runs the
 * operation handler inside `runForCaller`; the Executor reads the signal of the request
 * it serves here and, once it is aborted, closes the request's Neo4j sessions: the
 * driver resets their connections, which ends the transaction they run on the server
 * (its locks released, nothing committed), and the work fails with CallerGoneError.
 * Carried like the request's bookmarks (graphBookmarks.ts), so domain code needs no
 * parameter for it.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

const signals = new AsyncLocalStorage<AbortSignal>();

/** Runs `work` as the request whose caller `signal` says has gone (none: never cancelled). */
export function runForCaller<T>(
  signal: AbortSignal | undefined,
  work: () => Promise<T>,
): Promise<T> {
  return signal ? signals.run(signal, work) : work();
}

/** The signal of the request being served, if any (read by the Executor). */
export function callerSignal(): AbortSignal | undefined {
  return signals.getStore();
}
