/**
 * What every process of the service opens at start-up and closes at shutdown, in
 * one way: the Neo4j Executor (connectivity checked, schema ensured), Redis where
 * the process needs it, the HTTP listener, and the bounded closes that keep a
 * dependency that is down from holding a stopping process open.
 */
import type { Server } from 'node:http';
import type { Queue } from 'bullmq';
import type { Express } from 'express';
import type { Config } from '../../shared/config/config';
import type { Logger } from '../../shared/logging/logger';
import { Executor } from '../../shared/neo4j/executor';
import { withinMs } from '../../shared/redis/queueConnection';
import { connectRedis, createRedis, RedisClient } from '../../shared/redis/redisClient';
import { drainServer, trackUnusedConnections } from './drainServer';
import { ensureSchema } from './ensureSchema';
import type { ServiceMetrics } from './serviceMetrics';

export interface Stores {
  executor: Executor;
  /** Present when asked for (`redisClientName`). */
  redis?: RedisClient;
}

/**
 * Opens Neo4j (and Redis, named `redisClientName`, when given), waits until both
 * answer, and creates the schema. `metrics` times every query.
 */
export async function openStores(
  config: Config,
  logger: Logger,
  options: { metrics?: ServiceMetrics; redisClientName: string },
): Promise<Required<Stores>>;
export async function openStores(
  config: Config,
  logger: Logger,
  options?: { metrics?: ServiceMetrics; redisClientName?: string },
): Promise<Stores>;
export async function openStores(
  config: Config,
  logger: Logger,
  options: { metrics?: ServiceMetrics; redisClientName?: string } = {},
): Promise<Stores> {
  const executor = new Executor({
    ...config.neo4j,
    logger,
    onQuery: options.metrics?.observeQuery,
    traceStatements: config.telemetry !== undefined,
  });
  const redis = options.redisClientName
    ? createRedis(config, logger, options.redisClientName)
    : undefined;
  await Promise.all([executor.verifyConnectivity(), redis && connectRedis(redis)]);
  await ensureSchema(executor, logger);
  return { executor, redis };
}

/**
 * Listens on config.host:config.port (0: any free port) and resolves with the URL. An
 * idle kept-alive connection stays open HTTP_KEEP_ALIVE_TIMEOUT_MS (Node's own 5 s is
 * below the idle timeout of the load balancers put in front, which would then reuse a
 * connection this server has just closed and answer 502); a request's headers may take
 * HTTP_HEADERS_TIMEOUT_MS, above it. Its connections that never send a request are
 * tracked, for the drain to close (drainServer).
 */
export async function listen(
  app: Express,
  config: Config,
): Promise<{ server: Server; url: string; port: number }> {
  const server = await new Promise<Server>((resolve, reject) => {
    const s = app.listen(config.port, config.host, () => resolve(s));
    s.once('error', reject);
  });
  trackUnusedConnections(server);
  server.keepAliveTimeout = config.http.keepAliveTimeoutMs;
  server.headersTimeout = config.http.headersTimeoutMs;
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  return { server, url: `http://${config.host}:${port}`, port };
}

/** Bounded close; a queue that does not close in time is disconnected outright. */
export async function closeQueue(queue: Queue, logger: Logger): Promise<void> {
  try {
    await withinMs(3000, queue.close(), `closing queue ${queue.name}`);
  } catch (error) {
    logger.warn({ err: (error as Error).message }, 'queue close timed out; disconnecting');
    await withinMs(1000, queue.disconnect(), `disconnecting queue ${queue.name}`).catch(
      () => undefined,
    );
  }
}

/**
 * Graceful stop of a process that serves HTTP: the listener closes and requests in
 * flight finish (up to SHUTDOWN_TIMEOUT_S, then connections are cut); then `closes`
 * (queues) and Neo4j are closed side by side, Redis last, each bounded.
 */
export async function stopServing(
  config: Config,
  logger: Logger,
  parts: { server: Server; stores: Stores; closes?: (() => Promise<unknown>)[] },
): Promise<void> {
  const drain = await drainServer(parts.server, config.shutdownTimeoutSeconds * 1000);
  logger.info(drain, drain.drained ? 'requests drained' : 'drain timed out; connections cut');
  await Promise.allSettled([
    ...(parts.closes ?? []).map((close) => close()),
    withinMs(3000, parts.stores.executor.close(), 'closing neo4j'),
  ]);
  const { redis } = parts.stores;
  if (redis) await withinMs(1000, redis.quit(), 'closing redis').catch(() => redis.disconnect());
}
