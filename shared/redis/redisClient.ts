/**
 * ioredis client settings shared by rate limiting and idempotency: fail fast
 * (no offline queue, short command timeout) so a Redis outage never hangs a request.
 * Commands issued in the same turn of the event loop (the key-cache epoch and the
 * rate limit of concurrent requests) go out as one pipelined write: under load a
 * socket write per command was the largest single cost of a request in the gateway.
 */
import { Redis } from 'ioredis';
import type { Logger } from 'pino';

export function createRedis(url: string, logger: Logger, purpose: string): Redis {
  const client = new Redis(url, {
    lazyConnect: true,
    enableAutoPipelining: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: 1500,
    connectTimeout: 2000,
    retryStrategy: (times) => Math.min(times * 200, 2000),
  });
  let lastError = '';
  client.on('error', (err: Error) => {
    if (err.message !== lastError) logger.warn({ purpose, err: err.message }, 'redis error');
    lastError = err.message;
  });
  client.on('ready', () => {
    if (lastError) logger.info({ purpose }, 'redis connection restored');
    lastError = '';
  });
  return client;
}

/** Connects and waits until the client is ready, failing after timeoutMs. */
export async function connectRedis(client: Redis, timeoutMs = 10_000): Promise<void> {
  if (client.status === 'ready') return;
  const ready = new Promise<void>((resolve) => client.once('ready', () => resolve()));
  if (client.status === 'wait') client.connect().catch(() => undefined);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('redis did not become ready in time')), timeoutMs);
  });
  try {
    await Promise.race([ready, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
