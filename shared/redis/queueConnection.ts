/**
 * BullMQ connection settings (queues `decisions` and `purge`). Producers inside
 * a request fail fast once connected (no offline queue, one retry, short
 * timeouts) and callers bound every call with withinMs, so a Redis outage never
 * holds a request; workers block on Redis and reconnect forever, as BullMQ
 * requires (maxRetriesPerRequest null).
 */
import type { ConnectionOptions } from 'bullmq';

export function producerConnection(url: string): ConnectionOptions {
  return {
    url,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    commandTimeout: 2000,
    retryStrategy: (times: number) => Math.min(times * 500, 5000),
  };
}

export function workerConnection(url: string): ConnectionOptions {
  return {
    url,
    maxRetriesPerRequest: null,
    connectTimeout: 5000,
    retryStrategy: (times: number) => Math.min(times * 500, 5000),
  };
}

/** Resolves with the work's result, or rejects after `ms` (the work keeps running). */
export async function withinMs<T>(ms: number, work: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
