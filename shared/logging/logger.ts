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
}): Logger {
  return pino(
    {
      name: options.name ?? 'graph-design-service',
      level: options.level,
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: ['req.headers.authorization', 'token'], censor: '[redacted]' },
    },
    // Asynchronous writes: a line logged while the previous write is in flight joins the
    // next write instead of costing a blocking write of its own per request (profiled as a
    // fixed cost of every request). pino flushes what is pending synchronously on exit.
    pino.destination({
      dest: options.destination ?? (options.toStderr ? 2 : 1),
      sync: false,
    }),
  );
}
