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

const CRLF = Buffer.from('\r\n');
const HEADER_END = Buffer.from('\r\n\r\n');

/**
 * Frames one answer from its bytes as they arrive, each byte looked at once (a streamed
 * read of a large graph arrives in thousands of pieces).
 */
class AnswerReader {
  status = 0;
  close = false;
  /** Bytes held back: the head until its end arrives, or a chunk-size line until its CRLF. */
  private held: Buffer = Buffer.alloc(0);
  private readonly parts: Buffer[] = [];
  private phase: 'head' | 'sized' | 'size' | 'data' | 'dataEnd' | 'last' = 'head';
  /** Body bytes still to come: of a sized body, or of the current chunk. */
  private left = 0;

  /** Takes `data`; once the answer is whole, returns the bytes after it, else null. */
  feed(data: Buffer): Buffer | null {
    let at = 0;
    while (at <= data.length) {
      switch (this.phase) {
        case 'head': {
          const found = this.line(data, at, HEADER_END);
          if (found === null) return null;
          at = found.next;
          this.readHead(found.text);
          break;
        }
        case 'sized': {
          at = this.takeBody(data, at);
          return this.left === 0 ? data.subarray(at) : null;
        }
        case 'size': {
          const found = this.line(data, at, CRLF);
          if (found === null) return null;
          at = found.next;
          const size = parseInt(found.text.split(';')[0], 16);
          if (Number.isNaN(size)) throw new Error('malformed chunk size');
          this.left = size;
          this.phase = size === 0 ? 'last' : 'data';
          break;
        }
        case 'data': {
          at = this.takeBody(data, at);
          if (this.left > 0) return null;
          this.phase = 'dataEnd';
          break;
        }
        case 'dataEnd': {
          // the CRLF after a chunk's data
          const found = this.line(data, at, CRLF);
          if (found === null) return null;
          if (found.text !== '') throw new Error('chunk longer than its size');
          at = found.next;
          this.phase = 'size';
          break;
        }
        case 'last': {
          // no trailers are sent: the last chunk is followed by an empty line
          const found = this.line(data, at, CRLF);
          if (found === null) return null;
          if (found.text !== '') throw new Error('trailers after the last chunk');
          return data.subarray(found.next);
        }
      }
    }
    return null;
  }

  /** Keeps the body bytes still to come that `data` holds from `at`; returns where they end. */
  private takeBody(data: Buffer, at: number): number {
    const take = Math.min(this.left, data.length - at);
    this.parts.push(data.subarray(at, at + take));
    this.left -= take;
    return at + take;
  }

  /** The body, once feed has returned non-null. */
  text(): string {
    return Buffer.concat(this.parts).toString('utf8');
  }

  /** The text up to `end` (held bytes first) and where it ends in `data`, or null. */
  private line(data: Buffer, at: number, end: Buffer): { text: string; next: number } | null {
    const joined =
      this.held.length === 0 ? data.subarray(at) : Buffer.concat([this.held, data.subarray(at)]);
    const found = joined.indexOf(end);
    if (found < 0) {
      this.held = Buffer.from(joined);
      return null;
    }
    const consumed = found + end.length - this.held.length;
    this.held = Buffer.alloc(0);
    return { text: joined.toString('latin1', 0, found), next: at + consumed };
  }

  /** Reads the status line and the framing headers. */
  private readHead(head: string): void {
    const lines = head.split('\r\n');
    const statusLine = /^HTTP\/1\.1 (\d{3})/.exec(lines[0]);
    if (!statusLine) throw new Error(`not an HTTP/1.1 answer: ${lines[0]}`);
    this.status = Number(statusLine[1]);
    let length = 0;
    let chunked = false;
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line
        .slice(colon + 1)
        .trim()
        .toLowerCase();
      if (name === 'content-length') length = Number(value);
      else if (name === 'transfer-encoding') chunked = value === 'chunked';
      else if (name === 'connection') this.close = value === 'close';
    }
    this.phase = chunked ? 'size' : 'sized';
    this.left = chunked ? 0 : length;
  }
}

/** One kept-alive connection, answering one request at a time. */
class Connection {
  private pending: { resolve: (a: RawAnswer) => void; reject: (e: Error) => void } | null = null;
  private reader = new AnswerReader();
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
      this.reader = new AnswerReader();
      this.socket.write(request);
    });
  }

  private received(chunk: Buffer): void {
    this.answering = true;
    let after: Buffer | null;
    try {
      after = this.reader.feed(chunk);
    } catch (error) {
      this.socket.destroy(error as Error);
      return;
    }
    if (after === null) return;
    if (after.length > 0) {
      this.socket.destroy(new Error('bytes after the answer, with no request sent'));
      return;
    }
    if (this.reader.close) {
      this.closed = true;
      this.socket.end();
    }
    const pending = this.pending;
    this.pending = null;
    pending?.resolve({ status: this.reader.status, text: this.reader.text() });
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
