/** Structured JSON logs (pino). Each request gets a child logger carrying its request id. */
import pino, { Logger } from 'pino';

export type { Logger };

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
  return pino(
    {
      name: options.name ?? 'graph-design-service',
      level: options.level,
      base: undefined,
      timestamp: isoTimeOncePerMs,
      redact: { paths: ['req.headers.authorization', 'token'], censor: '[redacted]' },
      ...(options.mixin ? { mixin: options.mixin } : {}),
    },
    buffered(options.destination ?? (options.toStderr ? 2 : 1)),
  );
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
const FLUSH_BYTES = 4096;
/** ... or at most this long. */
const FLUSH_MS = 200;

/**
 * Asynchronous, buffered writes: a write per log line (the access line of every
 * request) was profiled as a fixed cost of each request. Lines go out in writes of
 * about 4 KiB, and at least every 200 ms; pino flushes what is pending synchronously
 * when the process exits.
 */
function buffered(dest: string | number) {
  const stream = pino.destination({ dest, sync: false, minLength: FLUSH_BYTES });
  // sonic-boom's own counters (not in its types): bytes waiting, a write in flight
  const pending = stream as unknown as { _len?: number; _writing?: boolean; destroyed?: boolean };
  const timer = setInterval(() => {
    if (!pending.destroyed && !pending._writing && (pending._len ?? 1) > 0) stream.flush();
  }, FLUSH_MS);
  timer.unref();
  stream.on('close', () => clearInterval(timer));
  return stream;
}
