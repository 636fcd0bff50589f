/**
 * Starts one service process of separate-process mode: its own Neo4j
 * Executor (and Redis, queue and idempotency store where its operations need
 * them), the operation handlers it owns built by the same route factories as the
 * in-process service, and the internal HTTP API the gateway calls.
 */
import type { Server } from 'node:http';
import type { Config } from '../../shared/config/config';
import { ConfigError } from '../../shared/config/config';
import { bookmarked } from '../../shared/http/bookmarkedOperations';
import type { OperationTable } from '../../shared/http/operation';
import type { ServiceContext } from '../../shared/http/serviceContext';
import type { Logger } from '../../shared/logging/logger';
import { Executor } from '../../shared/neo4j/executor';
import { withinMs } from '../../shared/redis/queueConnection';
import { connectRedis, createRedis, RedisClient } from '../../shared/redis/redisClient';
import { branchRoutes } from '../branches';
import { decisionRoutes } from '../decisions';
import { drainServer, ensureSchema, ServiceMetrics } from '../gateway';
import { forkContent, graphRoutes, IdempotencyStore, scopedReadRoutes } from '../graph';
import { graphFileRoutes } from '../graphfile';
import { mergeRoutes } from '../merge';
import { projectRoutes } from '../projects';
import { PurgeQueue } from '../purge';
import { internalApi } from './internalApi';
import { operationsOf, ServiceName } from './operationOwners';

export interface RunningOwnerService {
  name: ServiceName;
  server: Server;
  url: string;
  close(): Promise<void>;
}

/** Every operation handler, as the in-process service wires them (services/gateway/server.ts). */
function allOperations(ctx: ServiceContext, redis: RedisClient | undefined): OperationTable {
  const idempotency = redis
    ? new IdempotencyStore({ redis, ttlSeconds: ctx.config.idempotencyTtlSeconds })
    : (undefined as unknown as IdempotencyStore);
  return {
    ...projectRoutes(ctx),
    ...decisionRoutes(ctx),
    ...branchRoutes(ctx, { forkContent }),
    ...graphRoutes(ctx, { idempotency }),
    ...scopedReadRoutes(ctx),
    ...mergeRoutes(ctx),
    ...graphFileRoutes(ctx),
  };
}

export async function startOwnerService(
  config: Config,
  name: ServiceName,
  logger: Logger,
): Promise<RunningOwnerService> {
  if (!config.internalSecret || config.internalSecret.length < 32) {
    throw new ConfigError([
      'INTERNAL_SECRET of at least 32 characters is needed by a service process',
    ]);
  }
  const log = logger.child({ service: name });
  const metrics = new ServiceMetrics();
  const executor = new Executor({ ...config.neo4j, logger: log, onQuery: metrics.observeQuery });
  // Redis only where the operations use it: idempotency keys (graph-write).
  const redis = name === 'graph-write' ? createRedis(config, log, name) : undefined;
  await Promise.all([executor.verifyConnectivity(), redis ? connectRedis(redis) : undefined]);
  await ensureSchema(executor);
  // Deleting projects and discarding branches ask the worker to purge.
  const purges =
    name === 'projects' || name === 'branches'
      ? new PurgeQueue({ config, logger: log })
      : undefined;
  const ctx: ServiceContext = { executor, config, logger: log, purges };
  const every = allOperations(ctx, redis);
  const owned: OperationTable = {};
  for (const operationId of operationsOf(name)) {
    const handler = every[operationId];
    if (!handler) throw new Error(`no handler for ${operationId} (owned by ${name})`);
    // the gateway forwards X-Graph-Bookmark; this process waits for it and answers its own
    owned[operationId] = bookmarked(operationId, handler);
  }
  const app = internalApi({
    service: name,
    operations: owned,
    secret: config.internalSecret,
    executor,
    logger: log,
    maxBodyBytes: config.limits.maxBodyBytes,
    metrics,
  });
  const server = await new Promise<Server>((resolve, reject) => {
    const s = app.listen(config.port, config.host, () => resolve(s));
    s.once('error', reject);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://${config.host}:${port}`;
  log.info({ url, operations: Object.keys(owned) }, 'service process listening');
  return {
    name,
    server,
    url,
    close: async () => {
      await drainServer(server, config.shutdownTimeoutSeconds * 1000);
      await Promise.allSettled([
        purges ? withinMs(3000, purges.close(), 'closing queue purge') : undefined,
        withinMs(3000, executor.close(), 'closing neo4j'),
      ]);
      if (redis)
        await withinMs(1000, redis.quit(), 'closing redis').catch(() => redis.disconnect());
    },
  };
}
