/**
 * ioredis client settings shared by rate limiting, idempotency and the auth-cache
 * epoch: fail fast (no offline queue, short command timeout) so a Redis outage never
 * hangs a request. With REDIS_CLUSTER_NODES the client is an ioredis Cluster: every
 * key those users touch is a single key per command, so any slot layout works.
 * Commands issued in the same turn of the event loop (the key-cache epoch and the
 * rate limit of concurrent requests) go out as one pipelined write: under load a
 * socket write per command was the largest single cost of a request in the gateway.
 */
import { Cluster, ClusterOptions, Redis, RedisOptions } from 'ioredis';
import type { Logger } from 'pino';
import type { RedisSettings } from '../config/config';
import { bestEffort } from '../async/promises';

/** A single Redis or a Redis Cluster; callers use only commands both answer. */
export type RedisClient = Redis | Cluster;

/** Credentials and TLS for cluster nodes, taken from REDIS_URL (its host is ignored). */
export function clusterNodeOptions(redisUrl: string): RedisOptions {
  const url = new URL(redisUrl);
  return {
    ...(url.username ? { username: decodeURIComponent(url.username) } : {}),
    ...(url.password ? { password: decodeURIComponent(url.password) } : {}),
    ...(url.protocol === 'rediss:' ? { tls: {} } : {}),
  };
}

/** Cluster options: the failover of a master must not wedge the client. */
export function clusterOptions(
  settings: RedisSettings,
  redisOptions: RedisOptions,
): ClusterOptions {
  return {
    redisOptions: { ...clusterNodeOptions(settings.redisUrl), ...redisOptions },
    clusterRetryStrategy: (times) => Math.min(times * 200, 2000),
    // A replica taking over moves slots: look them up again soon after an error.
    retryDelayOnFailover: 200,
    retryDelayOnClusterDown: 200,
    slotsRefreshTimeout: 2000,
    slotsRefreshInterval: 5000,
  };
}

export function createRedis(settings: RedisSettings, logger: Logger, purpose: string): RedisClient {
  const fastFail = {
    maxRetriesPerRequest: 1,
    commandTimeout: 1500,
    connectTimeout: 2000,
  };
  const client: RedisClient = settings.redisClusterNodes
    ? new Cluster(settings.redisClusterNodes, {
        ...clusterOptions(settings, { ...fastFail, enableOfflineQueue: false }),
        lazyConnect: true,
        enableAutoPipelining: true,
        enableOfflineQueue: false,
      })
    : new Redis(settings.redisUrl, {
        ...fastFail,
        lazyConnect: true,
        enableAutoPipelining: true,
        enableOfflineQueue: false,
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
export async function connectRedis(client: RedisClient, timeoutMs = 10_000): Promise<void> {
  if (client.status === 'ready') return;
  const ready = new Promise<void>((resolve) => client.once('ready', () => resolve()));
  if (client.status === 'wait')
    void bestEffort(client.connect(), "the 'ready' event or the timeout below answers");
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
