/** Structured JSON logs (pino). Each request gets a child logger carrying its request id. */
import pino, { Logger } from 'pino';

export type { Logger };

export function createLogger(options: { level: string; name?: string }): Logger {
  return pino({
    name: options.name ?? 'graph-design-service',
    level: options.level,
    base: undefined,
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: ['req.headers.authorization', 'token'], censor: '[redacted]' },
  });
}
