/**
 * BullMQ connection settings (queues `decisions` and `purge`). Producers inside
 * a request fail fast once connected (no offline queue, one retry, short
 * timeouts) and callers bound every call with withinMs, so a Redis outage never
 * holds a request; workers block on Redis and reconnect forever, as BullMQ
 * requires (maxRetriesPerRequest null).
 *
 * With REDIS_CLUSTER_NODES the connection is an ioredis Cluster and every queue
 * uses the prefix `{gds}`: a BullMQ script touches several keys of one queue, and
 * the hash tag puts them all in one slot. BullMQ does not close a connection it was
 * handed, so the owner calls releaseConnection after closing its queue or worker.
 */
import type { ConnectionOptions } from 'bullmq';
import { Cluster } from 'ioredis';
import type { RedisSettings } from '../config/config';
import { clusterOptions } from './redisClient';

/** BullMQ's own default prefix on a single Redis; a hash tag on a cluster. */
export function queuePrefix(settings: RedisSettings): string {
  return settings.redisClusterNodes ? '{gds}' : 'bull';
}

export function producerConnection(settings: RedisSettings): ConnectionOptions {
  const options = {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    commandTimeout: 2000,
  };
  if (settings.redisClusterNodes) {
    return new Cluster(settings.redisClusterNodes, {
      ...clusterOptions(settings, options),
      enableOfflineQueue: false,
    });
  }
  return {
    url: settings.redisUrl,
    ...options,
    retryStrategy: (times: number) => Math.min(times * 500, 5000),
  };
}

export function workerConnection(settings: RedisSettings): ConnectionOptions {
  const options = { maxRetriesPerRequest: null, connectTimeout: 5000 };
  if (settings.redisClusterNodes) {
    return new Cluster(settings.redisClusterNodes, clusterOptions(settings, options));
  }
  return {
    url: settings.redisUrl,
    ...options,
    retryStrategy: (times: number) => Math.min(times * 500, 5000),
  };
}

/** Closes a cluster connection made above (BullMQ closes the ones it made itself). */
export function releaseConnection(connection: ConnectionOptions): void {
  if (connection instanceof Cluster) connection.disconnect();
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
