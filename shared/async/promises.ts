/**
 * The two ways code here starts work it does not await on the spot, each named so that a
 * reader sees why a rejection is not handled where the promise is made.
 *
 * - startEarly: work started now so that it overlaps other work, and awaited later by the
 *   same code. On a path that throws before reaching the await, it would otherwise be an
 *   unhandled rejection; the await (where there is one) still sees the failure.
 * - bestEffort: work whose failure changes nothing the caller answers or keeps (a cache
 *   write, a registration the next heartbeat renews, a reservation that expires by
 *   itself). The failure goes to `onFailure` when the caller has somewhere to report it,
 *   and is otherwise dropped on purpose, for the reason the caller names.
 */

/** `promise`, marked as handled until the code that started it awaits it. */
export function startEarly<T>(promise: Promise<T>): Promise<T> {
  promise.then(undefined, () => undefined);
  return promise;
}

/**
 * Awaits `work` and drops its failure, for `reason` (say, in a few words, why nothing is
 * lost when it fails); `onFailure` hears of it first when given.
 */
export async function bestEffort(
  work: Promise<unknown>,
  reason: string,
  onFailure?: (error: unknown, reason: string) => void,
): Promise<void> {
  try {
    await work;
  } catch (error) {
    onFailure?.(error, reason);
  }
}
