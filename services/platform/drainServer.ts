/**
 * Graceful stop of an HTTP server (every process that serves HTTP): stop accepting
 * connections, let requests in flight finish, close keep-alive connections as
 * soon as they are idle, and after `timeoutMs` cut whatever is still open.
 * Resolves with how the drain ended.
 *
 * A connection that never sent a request is closed at once too. Clients open such
 * connections on their own (a browser's speculative connection; fetch's pool opening
 * a fresh one after a stream it was reading was aborted) and may hold them for seconds.
 * Node's closeIdleConnections leaves them be, as connections still to send their
 * headers, so without this they held every drain to its timeout.
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

export interface DrainResult {
  /** True when every request finished before the timeout. */
  drained: boolean;
  ms: number;
}

/** Per server being tracked: its connections that have not sent a request yet. */
const unused = new WeakMap<Server, Set<Socket>>();

/**
 * Keeps track of `server`'s connections that have not sent a request yet, for its
 * drain to close; called once, as the server starts listening (listen).
 */
export function trackUnusedConnections(server: Server): void {
  const sockets = new Set<Socket>();
  unused.set(server, sockets);
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  // once a request came, the connection is idle or not as node's server says
  server.on('request', (req: { socket: Socket }) => sockets.delete(req.socket));
  server.on('upgrade', (req: { socket: Socket }) => sockets.delete(req.socket));
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
    for (const socket of unused.get(server) ?? []) socket.destroy();
  });
}
