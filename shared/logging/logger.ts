/** Structured JSON logs (pino). Each request gets a child logger carrying its request id. */
import pino, { Logger } from 'pino';

export type { Logger };

/** `toStderr` keeps stdout clean for commands whose stdout is their answer (graphctl). */
export function createLogger(options: {
  level: string;
  name?: string;
  toStderr?: boolean;
}): Logger {
  return pino(
    {
      name: options.name ?? 'graph-design-service',
      level: options.level,
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: ['req.headers.authorization', 'token'], censor: '[redacted]' },
    },
    pino.destination(options.toStderr ? 2 : 1),
  );
}
