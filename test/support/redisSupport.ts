/**
 * Redis from the tests' side, on a single server or a Redis Cluster
 * (REDIS_CLUSTER_NODES): queues made like the service makes them (same
 * connection kind, same prefix), and key lookups that visit every master.
 */
import { Queue, Worker, WorkerOptions, Processor } from 'bullmq';
import { Cluster } from 'ioredis';
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
