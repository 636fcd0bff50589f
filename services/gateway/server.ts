/**
 * Builds the whole in-process service from a Config: Neo4j executor, Redis,
 * schema, the services' operation tables, and the gateway. Used by main.ts, the
 * tests and the benchmarks, so all three run exactly the same wiring.
 */
import type { Server } from 'node:http';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { Router } from 'express';
import type { Config } from '../../shared/config/config';
import type { ServiceContext } from '../../shared/http/serviceContext';
import { createLogger, Logger } from '../../shared/logging/logger';
import { Executor } from '../../shared/neo4j/executor';
import {
  producerConnection,
  queuePrefix,
  releaseConnection,
  withinMs,
} from '../../shared/redis/queueConnection';
import { connectRedis, createRedis, RedisClient } from '../../shared/redis/redisClient';
import { branchRoutes } from '../branches';
import { decisionRoutes, DECISIONS_QUEUE } from '../decisions';
import { forkContent, graphRoutes, IdempotencyStore, scopedReadRoutes } from '../graph';
import { graphFileRoutes } from '../graphfile';
import { AuthCache, Authenticator } from '../identity';
import { gatewayMcpRoutes, loopbackUrl } from '../mcp';
import { UnknownKeyLimit } from './unknownKeyLimit';
import { mergeRoutes } from '../merge';
import { projectRoutes } from '../projects';
import { PurgeQueue } from '../purge';
import { remoteOperations } from '../split';
import { createGateway } from './app';
import { BookmarkMemory, withGraphBookmarks } from './bookmarkMemory';
import { drainServer } from './drainServer';
import { ensureSchema } from './ensureSchema';
import { healthRoutes } from './healthRoutes';
import { opsRouter } from './opsRouter';
import { RateLimits } from './rateLimits';
import { ServiceMetrics } from './serviceMetrics';

export const OPENAPI_PATH = join(__dirname, '..', '..', 'openapi', 'graph-design-service.yaml');

export interface RunningService {
  server: Server;
  url: string;
  executor: Executor;
  redis: RedisClient;
  logger: Logger;
  metrics: ServiceMetrics;
  /**
   * Graceful stop: readiness fails, the listener closes, requests in flight finish
   * (up to SHUTDOWN_TIMEOUT_S, then connections are cut), then queues, Neo4j and
   * Redis are closed.
   */
  close(): Promise<void>;
}

/** Bounded close; a queue that does not close in time is disconnected outright. */
async function closeQueue(queue: Queue, logger: Logger): Promise<void> {
  try {
    await withinMs(3000, queue.close(), `closing queue ${queue.name}`);
  } catch (error) {
    logger.warn({ err: (error as Error).message }, 'queue close timed out; disconnecting');
    await withinMs(1000, queue.disconnect(), `disconnecting queue ${queue.name}`).catch(
      () => undefined,
    );
  }
}

export async function startService(
  config: Config,
  logger = createLogger({ level: config.logLevel }),
): Promise<RunningService> {
  const metrics = new ServiceMetrics();
  const executor = new Executor({ ...config.neo4j, logger, onQuery: metrics.observeQuery });
  const redis = createRedis(config, logger, 'gateway');
  await Promise.all([executor.verifyConnectivity(), connectRedis(redis)]);
  await ensureSchema(executor);

  const purges = new PurgeQueue({ config, logger });
  // Read-only handle on the ingestion queue, for its depth in /metrics.
  // (No skipWaitingForReady: with the offline queue off, a queue that skips the
  // first `ready` never connects.)
  const decisionsConnection = producerConnection(config);
  const decisionsQueue = new Queue(DECISIONS_QUEUE, {
    connection: decisionsConnection,
    prefix: queuePrefix(config),
  });
  decisionsQueue.on('error', () => undefined);
  metrics.watchQueue(purges.queue);
  metrics.watchQueue(decisionsQueue);
  let draining = false;
  const bookmarks = new BookmarkMemory({ redis, ttlSeconds: config.bookmarkTtlSeconds });
  const ctx: ServiceContext = { executor, config, logger, purges };
  const authenticator = new Authenticator({
    executor,
    cache: new AuthCache({ redis, ttlSeconds: config.authCacheTtlSeconds }),
  });
  const rateLimits = new RateLimits({
    redis,
    perMinute: {
      read: config.limits.rateLimitReadPerMin,
      write: config.limits.rateLimitWritePerMin,
      anon: config.limits.rateLimitAnonPerMin,
    },
  });
  // one budget of unknown-key lookups per address, whichever route authenticates
  const unknownKeys = new UnknownKeyLimit(config.limits.rateLimitAnonPerMin);
  // MCP at /mcp: its tools call this gateway's own routes on loopback with the caller's key
  let selfUrl = '';
  const mcp = gatewayMcpRoutes({
    definitionPath: OPENAPI_PATH,
    logger,
    authenticator,
    rateLimits,
    unknownKeys,
    apiBaseUrl: () => selfUrl,
    maxBodyBytes: config.limits.maxBodyBytes,
    version: config.serviceVersion,
  });
  const app = await createGateway({
    definitionPath: OPENAPI_PATH,
    logger,
    authenticator,
    rateLimits,
    maxBodyBytes: config.limits.maxBodyBytes,
    maxInFlightPerKey: config.limits.maxInFlightPerKey,
    unknownKeys,
    observeRequest: metrics.observeRequest,
    plainRoutes: Router().use(
      opsRouter({ definitionPath: OPENAPI_PATH, metrics, metricsToken: config.metricsToken }),
      mcp,
    ),
    // Bookmarks: writes answer X-Graph-Bookmark, remembered per key; reads wait for it.
    operations: withGraphBookmarks(bookmarks, {
      ...healthRoutes({
        executor,
        redis,
        version: config.serviceVersion,
        draining: () => draining,
      }),
      ...projectRoutes(ctx),
      ...decisionRoutes(ctx),
      ...branchRoutes(ctx, { forkContent }),
      ...graphRoutes(ctx, {
        idempotency: new IdempotencyStore({ redis, ttlSeconds: config.idempotencyTtlSeconds }),
      }),
      ...scopedReadRoutes(ctx),
      ...mergeRoutes(ctx),
      ...graphFileRoutes(ctx),
      // Separate-process mode: the owners' processes answer instead (services/split).
      ...(config.serviceUrls
        ? remoteOperations({
            serviceUrls: config.serviceUrlPools ?? config.serviceUrls,
            secret: config.internalSecret ?? '',
          })
        : {}),
    }),
  });

  const server = await new Promise<Server>((resolve, reject) => {
    const s = app.listen(config.port, config.host, () => resolve(s));
    s.once('error', reject);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://${config.host}:${port}`;
  selfUrl = loopbackUrl(config.host, port);
  logger.info({ url }, 'graph design service listening');

  return {
    server,
    url,
    executor,
    redis,
    logger,
    metrics,
    close: async () => {
      draining = true;
      const drain = await drainServer(server, config.shutdownTimeoutSeconds * 1000);
      logger.info(drain, drain.drained ? 'requests drained' : 'drain timed out; connections cut');
      // Bounded: a dependency that is down must not hold the process open.
      await Promise.allSettled([
        closeQueue(purges.queue, logger),
        closeQueue(decisionsQueue, logger).then(() => releaseConnection(decisionsConnection)),
        withinMs(3000, executor.close(), 'closing neo4j'),
      ]);
      await withinMs(1000, redis.quit(), 'closing redis').catch(() => redis.disconnect());
    },
  };
}
