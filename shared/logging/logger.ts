/** Structured JSON logs (pino). Each request gets a child logger carrying its request id. */
import pino, { Logger } from 'pino';

export type { Logger };

/** What the access line of one answered request says (AccessLog). */
export interface AccessLine {
  reqId: string;
  method: string;
  path: string;
  operationId?: string;
  status: number;
  ms: number;
  userId?: string;
}

/** Writes the access line of one answered request, at info level. */
export type AccessLog = (line: AccessLine) => void;

/** The access-line writers of the loggers createLogger made (see accessLog). */
const accessWriters = new WeakMap<Logger, AccessLog>();

/**
 * The access log of `logger`: each line as `logger.info(line, 'request')` writes it, the
 * same fields in the same order. For a logger made by createLogger the line is put
 * together here and written to its destination: pino's general path (each field's type
 * looked up, its serializers and redaction, a merge of the mixin's fields) was, measured
 * under load, a large share of the gateway's fixed cost per request, for a line whose
 * fields are always these. Any other logger (a child, a test's) gets `logger.info`.
 */
export function accessLog(logger: Logger): AccessLog {
  return accessWriters.get(logger) ?? ((line) => logger.info(line, 'request'));
}

/** `toStderr` keeps stdout clean for commands whose stdout is their answer (graphctl). */
export function createLogger(options: {
  level: string;
  name?: string;
  toStderr?: boolean;
  /** A file to write to instead (the benchmarks log to /dev/null). */
  destination?: string;
  /** Fields added to every line, computed as it is logged (the trace ids when tracing). */
  mixin?: () => object;
}): Logger {
  const name = options.name ?? 'graph-design-service';
  const destination = buffered(options.destination ?? (options.toStderr ? 2 : 1));
  const logger = pino(
    {
      name,
      level: options.level,
      base: undefined,
      timestamp: isoTimeOncePerMs,
      redact: { paths: ['req.headers.authorization', 'token'], censor: '[redacted]' },
      ...(options.mixin ? { mixin: options.mixin } : {}),
    },
    destination,
  );
  accessWriters.set(logger, accessLineWriter(logger, name, destination, options.mixin));
  return logger;
}

/** JSON text of a field: `,"key":value`, as pino writes a string or number field. */
const field = (key: string, value: unknown) => `,"${key}":${JSON.stringify(value)}`;

/**
 * The line pino writes for `logger.info(line, 'request')`: its level and time, the
 * logger's name, the mixin's fields (those not undefined), then the line's own (an
 * undefined one left out, as pino leaves it out), then the message.
 */
function accessLineWriter(
  logger: Logger,
  name: string,
  destination: LineDestination,
  mixin: (() => object) | undefined,
): AccessLog {
  const head = `{"level":${logger.levels.values.info}`;
  const named = field('name', name);
  return (line) => {
    if (!logger.isLevelEnabled('info')) return;
    let text = head + isoTimeOncePerMs() + named;
    if (mixin)
      for (const [key, value] of Object.entries(mixin()))
        if (value !== undefined) text += `,${JSON.stringify(key)}:${JSON.stringify(value)}`;
    text += field('reqId', line.reqId) + field('method', line.method) + field('path', line.path);
    if (line.operationId !== undefined) text += field('operationId', line.operationId);
    text += `,"status":${line.status},"ms":${line.ms}`;
    if (line.userId !== undefined) text += field('userId', line.userId);
    destination.write(`${text},"msg":"request"}\n`);
  };
}

let stampedAt = -1;
let stamp = '';

/**
 * pino's isoTime, formatted once per millisecond: a busy process logs several lines in
 * the same millisecond (the access line of each request), and formatting the date was
 * a measurable part of writing one.
 */
function isoTimeOncePerMs(): string {
  const now = Date.now();
  if (now !== stampedAt) {
    stampedAt = now;
    stamp = `,"time":"${new Date(now).toISOString()}"`;
  }
  return stamp;
}

/** Lines are held until this many bytes are waiting ... */
const FLUSH_BYTES = 16 * 1024;
/** ... sent in writes of at most this many bytes ... */
const WRITE_BYTES = 64 * 1024;
/** ... or at most this long. */
const FLUSH_MS = 200;

/** What pino writes its lines to (and flushes through logger.flush). */
interface LineDestination {
  write(line: string): boolean;
  flush(done?: (error?: Error) => unknown): void;
}

/**
 * Asynchronous, buffered writes: a write per log line (the access line of every
 * request) was profiled as a fixed cost of each request, and so was a write per 4 KiB
 * (each an fs write on libuv's thread pool and its callback). Lines go out in writes of
 * about 16 KiB, and at least every 200 ms; pino flushes what is pending synchronously
 * when the process exits. Each line is handed over as bytes: given text, sonic-boom
 * measures the UTF-8 length of all the text it holds at each write (3.5 us a line with
 * 4 KiB held, measured), where the length of bytes is known.
 */
function buffered(dest: string | number): LineDestination {
  const stream = pino.destination({
    dest,
    sync: false,
    minLength: FLUSH_BYTES,
    maxWrite: WRITE_BYTES,
    contentMode: 'buffer',
  });
  // sonic-boom's own counters (not in its types): bytes waiting, a write in flight
  const pending = stream as unknown as { _len?: number; _writing?: boolean; destroyed?: boolean };
  const timer = setInterval(() => {
    if (!pending.destroyed && !pending._writing && (pending._len ?? 1) > 0) stream.flush();
  }, FLUSH_MS);
  timer.unref();
  stream.on('close', () => clearInterval(timer));
  // sonic-boom's types take text; in buffer mode it takes bytes
  const writeBytes = stream.write.bind(stream) as unknown as (bytes: Buffer) => boolean;
  return {
    write: (line) => writeBytes(Buffer.from(line, 'utf8')),
    flush: (done) => stream.flush(done),
  };
}
