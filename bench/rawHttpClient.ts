/**
 * The benchmarks' lean HTTP/1.1 client, as load generators are built (autocannon, wrk):
 * each request is written whole in one socket write over a kept-alive connection, and the
 * answer is framed by its Content-Length or its chunks, with no more parsing than that.
 * In the benchmark's own process, node:http's client (agent, ClientRequest, the parser's
 * events and streams) cost about 0.4 ms per request on the 2-core machines these benches
 * run on (measured on a neighborhood read: 0.80 ms against 0.39 ms between the server's
 * 'finish' and the answer, plus the request's way in); that is the client's time, not the
 * service's, and it lands in every API/bare ratio the benchmarks print.
 *
 * It speaks only what the service answers: HTTP/1.1, a status line, headers, and a body
 * framed by Content-Length or chunked transfer encoding (streamed reads). Anything else
 * fails the request loudly. One request per connection at a time; concurrent calls open
 * more connections, kept for reuse.
 */
import { connect, Socket } from 'node:net';

export interface RawAnswer {
  status: number;
  text: string;
}

const HEADER_END = Buffer.from('\r\n\r\n');

/** One kept-alive connection, answering one request at a time. */
class Connection {
  private pending: { resolve: (a: RawAnswer) => void; reject: (e: Error) => void } | null = null;
  private buffered: Buffer = Buffer.alloc(0);
  closed = false;
  /** Bytes of the pending request's answer have arrived. */
  answering = false;

  constructor(readonly socket: Socket) {
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.received(chunk));
    const fail = (error: Error) => {
      this.closed = true;
      this.pending?.reject(error);
      this.pending = null;
    };
    socket.on('error', fail);
    socket.on('close', () => fail(new Error('connection closed before the answer')));
  }

  send(request: string | Buffer): Promise<RawAnswer> {
    return new Promise((resolve, reject) => {
      this.pending = { resolve, reject };
      this.answering = false;
      this.socket.write(request);
    });
  }

  private received(chunk: Buffer): void {
    this.answering = true;
    this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
    let answer: { status: number; text: string; used: number; close: boolean } | null;
    try {
      answer = parseAnswer(this.buffered);
    } catch (error) {
      this.socket.destroy(error as Error);
      return;
    }
    if (!answer) return;
    this.buffered = this.buffered.subarray(answer.used);
    if (answer.close) {
      this.closed = true;
      this.socket.end();
    }
    const pending = this.pending;
    this.pending = null;
    pending?.resolve({ status: answer.status, text: answer.text });
  }
}

/** The first whole answer in `data`, or null while it is incomplete. */
function parseAnswer(
  data: Buffer,
): { status: number; text: string; used: number; close: boolean } | null {
  const headEnd = data.indexOf(HEADER_END);
  if (headEnd < 0) return null;
  const head = data.toString('latin1', 0, headEnd);
  const lines = head.split('\r\n');
  const statusLine = /^HTTP\/1\.1 (\d{3})/.exec(lines[0]);
  if (!statusLine) throw new Error(`not an HTTP/1.1 answer: ${lines[0]}`);
  let length: number | null = null;
  let chunked = false;
  let close = false;
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === 'content-length') length = Number(value);
    else if (name === 'transfer-encoding') chunked = value.toLowerCase() === 'chunked';
    else if (name === 'connection') close = value.toLowerCase() === 'close';
  }
  const bodyStart = headEnd + HEADER_END.length;
  const status = Number(statusLine[1]);
  if (chunked) {
    const body = dechunk(data, bodyStart);
    return body && { status, text: body.text, used: body.used, close };
  }
  const size = length ?? 0;
  if (data.length < bodyStart + size) return null;
  return {
    status,
    text: data.toString('utf8', bodyStart, bodyStart + size),
    used: bodyStart + size,
    close,
  };
}

/** The chunked body from `at`, or null while its last chunk has not arrived. */
function dechunk(data: Buffer, at: number): { text: string; used: number } | null {
  const parts: Buffer[] = [];
  for (;;) {
    const lineEnd = data.indexOf('\r\n', at);
    if (lineEnd < 0) return null;
    const size = parseInt(data.toString('latin1', at, lineEnd).split(';')[0], 16);
    if (Number.isNaN(size)) throw new Error('malformed chunk size');
    const start = lineEnd + 2;
    if (size === 0) {
      // no trailers are sent: the last chunk is followed by an empty line
      if (data.length < start + 2) return null;
      return { text: Buffer.concat(parts).toString('utf8'), used: start + 2 };
    }
    if (data.length < start + size + 2) return null;
    parts.push(data.subarray(start, start + size));
    at = start + size + 2;
  }
}

/** Kept-alive connections to one origin. */
export class RawHttpClient {
  private readonly idle: Connection[] = [];
  private readonly host: string;
  private readonly port: number;

  constructor(baseUrl: string) {
    const url = new URL(baseUrl);
    this.host = url.hostname;
    this.port = Number(url.port || 80);
  }

  async request(
    method: string,
    path: string,
    headers: Record<string, string>,
    body: string | undefined,
  ): Promise<RawAnswer> {
    let head = `${method} ${path} HTTP/1.1\r\nHost: ${this.host}:${this.port}\r\n`;
    for (const [name, value] of Object.entries(headers)) head += `${name}: ${value}\r\n`;
    if (body !== undefined) head += `Content-Length: ${Buffer.byteLength(body)}\r\n`;
    head += '\r\n';
    const request = body === undefined ? head : head + body;
    let connection = this.idleConnection();
    let answer: RawAnswer;
    if (connection) {
      // the server may close a connection kept idle past its keep-alive timeout as the
      // request leaves: a connection that closes with no answer started is tried once anew
      answer = await connection.send(request).catch(async (error: Error) => {
        if (!connection?.closed || connection.answering) throw error;
        connection = await this.open();
        return connection.send(request);
      });
    } else {
      connection = await this.open();
      answer = await connection.send(request);
    }
    if (!connection.closed) this.idle.push(connection);
    return answer;
  }

  private idleConnection(): Connection | undefined {
    for (let c = this.idle.pop(); c; c = this.idle.pop()) if (!c.closed) return c;
    return undefined;
  }

  private open(): Promise<Connection> {
    return new Promise((resolve, reject) => {
      const socket = connect(this.port, this.host);
      socket.once('connect', () => resolve(new Connection(socket)));
      socket.once('error', reject);
    });
  }
}
