/**
 * Whether work settles within a bound, for tests that assert a request does not wait (on a
 * lock, a bookmark): the work's own result, or 'pending' when the bound passed first. The
 * work goes on either way; the caller decides what to do with it.
 */

/** `work` settled within `ms`, or 'pending'. */
export async function within<T>(ms: number, work: Promise<T>): Promise<T | 'pending'> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'pending'>((resolve) => (timer = setTimeout(resolve, ms, 'pending')));
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}
