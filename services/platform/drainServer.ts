/**
 * Graceful stop of an HTTP server (every process that serves HTTP): stop accepting
 * connections, let requests in flight finish, close keep-alive connections as
 * soon as they are idle, and after `timeoutMs` cut whatever is still open.
 * Resolves with how the drain ended.
 */
import type { Server } from 'node:http';

export interface DrainResult {
  /** True when every request finished before the timeout. */
  drained: boolean;
  ms: number;
}

export function drainServer(server: Server, timeoutMs: number): Promise<DrainResult> {
  const started = Date.now();
  return new Promise<DrainResult>((resolve) => {
    let drained = true;
    // Idle keep-alive sockets would hold close() open; sweep them as requests finish.
    const sweep = setInterval(() => server.closeIdleConnections(), 100);
    const deadline = setTimeout(() => {
      drained = false;
      server.closeAllConnections();
    }, timeoutMs);
    server.close(() => {
      clearInterval(sweep);
      clearTimeout(deadline);
      resolve({ drained, ms: Date.now() - started });
    });
    server.closeIdleConnections();
  });
}
