/**
 * Redis from the tests' side, on a single server or a Redis Cluster
 * (REDIS_CLUSTER_NODES): queues made like the service makes them (same
 * connection kind, same prefix), key lookups that visit every master, and the
 * administrative commands a test runs as the cluster's `admin` ACL user.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Queue, Worker, WorkerOptions, Processor } from 'bullmq';
import { Cluster, Redis, RedisOptions } from 'ioredis';
import type { RedisSettings } from '../../shared/config/config';
import { createLogger } from '../../shared/logging/logger';
import {
  producerConnection,
  queuePrefix,
  releaseConnection,
  workerConnection,
} from '../../shared/redis/queueConnection';
import { connectRedis, createRedis, RedisClient } from '../../shared/redis/redisClient';

export interface TestQueue {
  queue: Queue;
  close(): Promise<void>;
}

export function testQueue(name: string, settings: RedisSettings): TestQueue {
  const connection = producerConnection(settings);
  const queue = new Queue(name, { connection, prefix: queuePrefix(settings) });
  return {
    queue,
    close: async () => {
      await queue.close();
      releaseConnection(connection);
    },
  };
}

export function testWorker(
  name: string,
  settings: RedisSettings,
  processor: Processor,
  options: Partial<WorkerOptions> = {},
): { worker: Worker; close(): Promise<void> } {
  const connection = workerConnection(settings);
  const worker = new Worker(name, processor, {
    ...options,
    connection,
    prefix: queuePrefix(settings),
  });
  return {
    worker,
    close: async () => {
      await worker.close();
      releaseConnection(connection);
    },
  };
}

/** A connected client for the configured Redis or cluster. */
export async function testRedis(settings: RedisSettings): Promise<RedisClient> {
  const redis = createRedis(settings, createLogger({ level: 'silent' }), 'test');
  await connectRedis(redis);
  return redis;
}

/** Every key matching `pattern` (KEYS on each master of a cluster). */
export async function keysMatching(redis: RedisClient, pattern: string): Promise<string[]> {
  if (!(redis instanceof Cluster)) return redis.keys(pattern);
  const perNode = await Promise.all(redis.nodes('master').map((node) => node.keys(pattern)));
  return perNode.flat();
}

/** Deletes keys one by one (a multi-key DEL must stay in one slot on a cluster). */
export async function deleteKeys(redis: RedisClient, keys: string[]): Promise<void> {
  await Promise.all(keys.map((key) => redis.del(key)));
}

/**
 * The node on `port` of the cluster scripts/lib/redisCluster.sh runs: its directory
 * (.run/<name>/redis-cluster/<port>/, the newest when several runs left one) and the
 * options to log in as its `admin` user (the service's own user, gds, may not run the
 * administrative commands: CONFIG, SHUTDOWN, CLIENT KILL...).
 */
export function clusterNode(port: number): { dir: string; admin: RedisOptions } {
  const run = join(__dirname, '..', '..', '.run');
  const dirs = readdirSync(run)
    .map((name) => join(run, name, 'redis-cluster', String(port)))
    .filter((dir) => statSync(join(dir, 'redis.conf'), { throwIfNoEntry: false }))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  if (dirs.length === 0) throw new Error(`no directory of a cluster node on port ${port}`);
  const conf = readFileSync(join(dirs[0], 'redis.conf'), 'utf8');
  const password = /^user admin on >(\S+)/m.exec(conf)?.[1];
  return { dir: dirs[0], admin: { username: 'admin', password } };
}

/**
 * Runs one administrative command on the single Redis, or on every node of the cluster
 * as its `admin` user.
 */
export async function onEveryRedisAsAdmin(
  settings: RedisSettings,
  command: string,
  ...args: string[]
): Promise<void> {
  const targets = settings.redisClusterNodes
    ? settings.redisClusterNodes.map(
        (node) =>
          new Redis(node.port, node.host, { ...clusterNode(node.port).admin, lazyConnect: true }),
      )
    : [new Redis(settings.redisUrl, { lazyConnect: true })];
  try {
    await Promise.all(targets.map((redis) => redis.call(command, ...args)));
  } finally {
    for (const redis of targets) redis.disconnect();
  }
}
