/**
 * Builds the whole in-process service from a Config: Neo4j executor, Redis,
 * schema, the services' operation tables, and the gateway. Used by main.ts, the
 * tests and the benchmarks, so all three run exactly the same wiring.
 */
import type { Server } from 'node:http';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import type { Config } from '../../shared/config/config';
import type { ServiceContext } from '../../shared/http/serviceContext';
import { createLogger, Logger } from '../../shared/logging/logger';
import { Executor } from '../../shared/neo4j/executor';
import { connectRedis, createRedis } from '../../shared/redis/redisClient';
import { branchRoutes } from '../branches/branchRoutes';
import { decisionRoutes } from '../decisions/decisionRoutes';
import { graphRoutes } from '../graph/graphRoutes';
import { graphFileRoutes } from '../graphfile/graphFileRoutes';
import { IdempotencyStore } from '../graph/idempotency';
import { scopedReadRoutes } from '../graph/scopedReadRoutes';
import { Authenticator } from '../identity/authenticator';
import { mergeRoutes } from '../merge/mergeRoutes';
import { projectRoutes } from '../projects/projectRoutes';
import { PurgeQueue } from '../purge/purgeQueue';
import { createGateway } from './app';
import { ensureSchema } from './ensureSchema';
import { healthRoutes } from './healthRoutes';
import { RateLimits } from './rateLimits';

export const OPENAPI_PATH = join(__dirname, '..', '..', 'openapi', 'graph-design-service.yaml');

export interface RunningService {
  server: Server;
  url: string;
  executor: Executor;
  redis: Redis;
  logger: Logger;
  close(): Promise<void>;
}

export async function startService(config: Config, logger = createLogger({ level: config.logLevel })): Promise<RunningService> {
  const executor = new Executor({ ...config.neo4j, logger });
  const redis = createRedis(config.redisUrl, logger, 'gateway');
  await Promise.all([executor.verifyConnectivity(), connectRedis(redis)]);
  await ensureSchema(executor);

  const purges = new PurgeQueue({ config, logger });
  const ctx: ServiceContext = { executor, config, logger, purges };
  const app = await createGateway({
    definitionPath: OPENAPI_PATH,
    logger,
    authenticator: new Authenticator({ executor }),
    rateLimits: new RateLimits({
      redis,
      perMinute: {
        read: config.limits.rateLimitReadPerMin,
        write: config.limits.rateLimitWritePerMin,
        anon: config.limits.rateLimitAnonPerMin,
      },
    }),
    maxBodyBytes: config.limits.maxBodyBytes,
    operations: {
      ...healthRoutes({ executor, redis, version: config.serviceVersion }),
      ...projectRoutes(ctx),
      ...decisionRoutes(ctx),
      ...branchRoutes(ctx),
      ...graphRoutes(ctx, {
        idempotency: new IdempotencyStore({ redis, ttlSeconds: config.idempotencyTtlSeconds }),
      }),
      ...scopedReadRoutes(ctx),
      ...mergeRoutes(ctx),
      ...graphFileRoutes(ctx),
    },
  });

  const server = await new Promise<Server>((resolve, reject) => {
    const s = app.listen(config.port, config.host, () => resolve(s));
    s.once('error', reject);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://${config.host}:${port}`;
  logger.info({ url }, 'graph design service listening');

  return {
    server,
    url,
    executor,
    redis,
    logger,
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await purges.close();
      await executor.close();
      redis.disconnect();
    },
  };
}
