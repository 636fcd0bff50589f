/**
 * A request answered by a node request listener (an express app) inside this process,
 * without a socket: what the gateway's MCP tools use to call the API they front. Every
 * middleware runs as for a request from the network (request id, authentication, rate
 * limits, requests in flight, validation, the error bodies), since the listener gets a
 * real IncomingMessage and ServerResponse; only the bytes on a wire are skipped (the
 * request line and headers parsed, the answer's framing written and parsed again).
 *
 * The response is given a socket that discards what node writes to it, and its body is
 * read as the listener hands it over (write and end, before any chunked framing). Once
 * the response is sent, the socket closes, so the response emits 'close' after
 * 'finish' as it does on a server (what releases a slot of the key's requests in
 * flight), and only then is the answer handed back. Aborting `signal` before the
 * answer closes the socket first, as a caller hanging up does: the response closes
 * unsent and the work answering it is cancelled (hangUpSignal).
 */
import { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { Duplex } from 'node:stream';

export type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

export interface InjectedRequest {
  method: string;
  /** Path with its query string, e.g. /v1/projects?limit=5. */
  path: string;
  /** Header names in any case; Content-Length is set from `body`. */
  headers: Record<string, string>;
  body?: string;
  /** The address the request seems to come from (what express's req.ip starts from). */
  remoteAddress: string;
  /** Aborted: the request is abandoned as by a caller who hung up. */
  signal?: AbortSignal;
}

export interface InjectedAnswer {
  status: number;
  headers: OutgoingHttpHeaders;
  /** The body as UTF-8 text (the API answers JSON or text). */
  body: string;
}

export class RequestAbandonedError extends Error {
  constructor() {
    super('the request was abandoned before its answer');
    this.name = 'RequestAbandonedError';
  }
}

/** A socket that takes what node writes and discards it: the body is read from the response. */
function discardingSocket(remoteAddress: string): Socket {
  const socket = new Duplex({
    read() {},
    write(_chunk, _encoding, done) {
      done();
    },
  });
  return Object.assign(socket, {
    remoteAddress,
    remotePort: 0,
    encrypted: false,
  }) as unknown as Socket;
}

function incomingMessage(socket: Socket, request: InjectedRequest): IncomingMessage {
  const req = new IncomingMessage(socket);
  req.method = request.method.toUpperCase();
  req.url = request.path;
  req.httpVersion = '1.1';
  req.httpVersionMajor = 1;
  req.httpVersionMinor = 1;
  const headers: Record<string, string> = {};
  const rawHeaders: string[] = [];
  for (const [name, value] of Object.entries(request.headers)) {
    if (name.toLowerCase() === 'content-length') continue;
    headers[name.toLowerCase()] = value;
    rawHeaders.push(name, value);
  }
  const body = request.body === undefined ? undefined : Buffer.from(request.body, 'utf8');
  if (body) {
    headers['content-length'] = String(body.length);
    rawHeaders.push('Content-Length', headers['content-length']);
    req.push(body);
  }
  req.headers = headers;
  req.rawHeaders = rawHeaders;
  req.push(null);
  req.complete = true;
  return req;
}

type Chunk = string | Uint8Array;

function textOf(chunks: { chunk: Chunk; encoding?: BufferEncoding }[]): string {
  if (chunks.length === 1 && typeof chunks[0].chunk === 'string' && !chunks[0].encoding)
    return chunks[0].chunk;
  return Buffer.concat(
    chunks.map(({ chunk, encoding }) =>
      typeof chunk === 'string' ? Buffer.from(chunk, encoding ?? 'utf8') : chunk,
    ),
  ).toString('utf8');
}

/** Answers `request` with `listener` in this process (see the file comment). */
export function injectRequest(
  listener: RequestListener,
  request: InjectedRequest,
): Promise<InjectedAnswer> {
  return new Promise((resolve, reject) => {
    if (request.signal?.aborted) return reject(new RequestAbandonedError());
    const socket = discardingSocket(request.remoteAddress);
    const req = incomingMessage(socket, request);
    const res = new ServerResponse(req);
    res.assignSocket(socket);
    const chunks: { chunk: Chunk; encoding?: BufferEncoding }[] = [];
    const keep = (chunk: unknown, encoding: unknown) => {
      if (typeof chunk !== 'string' && !(chunk instanceof Uint8Array)) return;
      if (chunk.length === 0) return;
      chunks.push({
        chunk,
        encoding: typeof encoding === 'string' ? (encoding as BufferEncoding) : undefined,
      });
    };
    // own properties: express swaps the response's prototype for its own, not these
    const { write, end } = res;
    res.write = function (this: ServerResponse, chunk: unknown, ...rest: unknown[]) {
      keep(chunk, rest[0]);
      return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
    } as typeof res.write;
    res.end = function (this: ServerResponse, chunk?: unknown, ...rest: unknown[]) {
      keep(chunk, rest[0]);
      return (end as (...args: unknown[]) => ServerResponse).call(this, chunk, ...rest);
    } as typeof res.end;
    const abandon = () => {
      socket.destroy();
      reject(new RequestAbandonedError());
    };
    request.signal?.addEventListener('abort', abandon, { once: true });
    res.once('finish', () => {
      request.signal?.removeEventListener('abort', abandon);
      // as a server does once a response is sent: 'close' follows 'finish' (once the
      // socket's write callbacks have run, so no write is left to fail on a destroyed socket)
      process.nextTick(() => socket.destroy());
      // the answer is the caller's only once the response has closed, as over a network,
      // where the server has closed it before the caller reads it: the key's slot in
      // flight is free again by then, and a caller that sends its next request at once
      // (a listing that keeps as many requests going as the key may have) is not refused
      res.once('close', () =>
        resolve({ status: res.statusCode, headers: res.getHeaders(), body: textOf(chunks) }),
      );
    });
    listener(req, res);
  });
}
