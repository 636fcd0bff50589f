/**
 * Builds the gateway process from a Config: Neo4j executor, Redis, schema, and the
 * express gateway (authentication, rate limits, validation, probes, /metrics, /mcp).
 * Which operations it runs itself comes from the operation registry (the x-service
 * of each operation in the OpenAPI document): in process, every operation, with the
 * handlers of the services' route factories; in separate-process mode (SERVICE_URLS),
 * its own operations only, and every other one is forwarded to its owner's process.
 * Used by the entry points, the tests and the benchmarks, so all run the same wiring.
 */
import type { Server } from 'node:http';
import { Queue } from 'bullmq';
import { Router } from 'express';
import { Config, requiredInternalSecret, SECRET_NEEDED_BY } from '../../shared/config/config';
import type { OperationTable } from '../../shared/http/operation';
import { createLogger, Logger } from '../../shared/logging/logger';
import type { Executor } from '../../shared/neo4j/executor';
import {
  producerConnection,
  queuePrefix,
  releaseConnection,
} from '../../shared/redis/queueConnection';
import type { RedisClient } from '../../shared/redis/redisClient';
import { DECISIONS_QUEUE } from '../decisions';
import { IdempotencyStore, warmPlansAtStart } from '../graph';
import { rehearseStagedImport } from '../graphfile';
import { AuthCache, Authenticator, RevocationFeed } from '../identity';
import { gatewayMcpRoutes } from '../mcp';
import {
  closeQueue,
  listen,
  loadOperationRegistry,
  MaintenanceFlag,
  OPENAPI_PATH,
  openStores,
  operationHandlers,
  ServiceMetrics,
  stopServing,
} from '../platform';
import { PurgeQueue } from '../purge';
import { remoteOperations } from '../split';
import { createGateway } from './app';
import { BookmarkMemory, withGraphBookmarks } from './bookmarkMemory';
import { BookmarkTokens } from '../../shared/neo4j/graphBookmarks';
import { healthRoutes } from './healthRoutes';
import { opsRouter } from './opsRouter';
import { RateLimits } from './rateLimits';
import { UnknownKeyLimit } from './unknownKeyLimit';

export interface RunningService {
  server: Server;
  url: string;
  executor: Executor;
  redis: RedisClient;
  logger: Logger;
  metrics: ServiceMetrics;
  /**
   * Graceful stop: readiness fails, open event streams end (with a retry hint), the
   * listener closes, requests in flight finish (up to SHUTDOWN_TIMEOUT_S, then
   * connections are cut), then queues, Neo4j and Redis are closed.
   */
  close(): Promise<void>;
}

export async function startService(
  config: Config,
  logger = createLogger({ level: config.logLevel }),
): Promise<RunningService> {
  const registry = loadOperationRegistry(OPENAPI_PATH);
  const metrics = new ServiceMetrics();
  const stores = await openStores(config, logger, { metrics, redisClientName: 'gateway' });
  const { executor, redis } = stores;

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
  // set by an operator while Neo4j is backed up or restored: writes then answer 503
  const maintenance = new MaintenanceFlag({ redis });
  metrics.watchStores({ executor, redis, maintenance });
  let draining = false;
  // aborted as close() begins: event streams end (with a retry hint) before the drain
  const stopping = new AbortController();
  const bookmarks = new BookmarkMemory({
    redis,
    ttlSeconds: config.bookmarkTtlSeconds,
    // signed with INTERNAL_SECRET: the service processes and other gateways honour them
    tokens: new BookmarkTokens(config.internalSecret),
  });
  // revocations are pushed to this process, so a request does not ask Redis for them
  const revocations = new RevocationFeed({ redis });
  const authenticator = new Authenticator({
    executor,
    cache: new AuthCache({ redis, ttlSeconds: config.authCacheTtlSeconds, feed: revocations }),
  });
  const rateLimits = new RateLimits({
    redis,
    perMinute: {
      read: config.limits.rateLimitReadPerMin,
      write: config.limits.rateLimitWritePerMin,
      anon: config.limits.rateLimitAnonPerMin,
    },
    onRefused: metrics.countRefusal,
  });
  // one budget of unknown-key lookups per address, whichever route authenticates
  const unknownKeys = new UnknownKeyLimit(config.limits.rateLimitAnonPerMin);
  // MCP at /mcp: its tools' API calls, with the caller's key, are answered by this
  // gateway's own routes in process (`app`, built below; called only once it serves)
  const mcp = gatewayMcpRoutes({
    definitionPath: OPENAPI_PATH,
    logger,
    authenticator,
    rateLimits,
    unknownKeys,
    gateway: () => app,
    maxBodyBytes: config.limits.maxBodyBytes,
    version: config.serviceVersion,
    allowedOrigins: config.mcp.allowedOrigins,
  });
  const serviceOperations = registry.serviceOperations();
  const ctx = { executor, config, logger, purges, stopping: stopping.signal };
  // Separate-process mode: the owners' processes answer (services/split); in process,
  // this process builds the handlers of every service operation.
  const services: OperationTable = config.serviceUrls
    ? remoteOperations({
        operations: serviceOperations,
        serviceUrls: config.serviceUrlPools ?? config.serviceUrls,
        secret: requiredInternalSecret(config, SECRET_NEEDED_BY.gateway),
        stopping: stopping.signal,
      })
    : operationHandlers(
        {
          ctx,
          idempotency: new IdempotencyStore({ redis, ttlSeconds: config.idempotencyTtlSeconds }),
        },
        serviceOperations.map((op) => op.operationId),
      );
  const app = await createGateway({
    definitionPath: OPENAPI_PATH,
    logger,
    authenticator,
    rateLimits,
    maxBodyBytes: config.limits.maxBodyBytes,
    maxInFlightPerKey: config.limits.maxInFlightPerKey,
    trustedProxies: config.trustedProxies,
    unknownKeys,
    observeRequest: metrics.observeRequest,
    maintenance,
    onInFlightRefused: () => metrics.countRefusal('in_flight'),
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
      ...services,
    }),
  });

  const { server, url } = await listen(app, config);
  logger.info({ url }, 'graph design service listening');
  // in process, this process serves the scoped reads and batches: their statements are
  // planned before the first request needs them (the owners' processes do in split mode)
  const warmup = warmPlansAtStart(
    ctx,
    config.serviceUrls ? [] : serviceOperations.map((op) => op.operationId),
    { stagedImport: rehearseStagedImport },
  );

  return {
    server,
    url,
    executor,
    redis,
    logger,
    metrics,
    close: async () => {
      draining = true;
      stopping.abort();
      await stopServing(config, logger, {
        server,
        stores,
        closes: [
          () => warmup.close(),
          () => revocations.close(),
          () => closeQueue(purges.queue, logger),
          () =>
            closeQueue(decisionsQueue, logger).then(() => releaseConnection(decisionsConnection)),
        ],
      });
    },
  };
}
