/**
 * The signal a request's work is cancelled by (shared/neo4j/callerCancellation.ts): it
 * aborts when the response closes before it was sent whole, which node reports when
 * the caller's connection is cut first (the caller hung up, or a proxy in front gave up
 * on it). A response sent whole aborts nothing.
 */
import type { ServerResponse } from 'node:http';

export function hangUpSignal(res: ServerResponse): AbortSignal {
  const controller = new AbortController();
  if (res.destroyed && !res.writableFinished) controller.abort();
  else
    res.once('close', () => {
      if (!res.writableFinished) controller.abort();
    });
  return controller.signal;
}
