/**
 * Starts one service process of separate-process mode: its own Neo4j Executor (and
 * Redis, queue and Idempotency-Key store where its operations need them), the
 * handlers of the operations the registry gives it (x-service in the OpenAPI
 * document) built by the same route factories as the in-process service, and the
 * internal HTTP API the gateway calls.
 */
import type { Server } from 'node:http';
import { Config, requiredInternalSecret, SECRET_NEEDED_BY } from '../../shared/config/config';
import type { ServiceName } from '../../shared/config/serviceNames';
import { bookmarkedOperations } from '../../shared/http/bookmarkedOperations';
import { BookmarkTokens } from '../../shared/neo4j/graphBookmarks';
import type { Logger } from '../../shared/logging/logger';
import { IdempotencyStore, warmPlansAtStart } from '../graph';
import { rehearseStagedImport } from '../graphfile';
import {
  listen,
  loadOperationRegistry,
  openStores,
  operationHandlers,
  ServiceMetrics,
  stopServing,
} from '../platform';
import { PurgeQueue } from '../purge';
import { internalApi } from './internalApi';
import { RedisUsedIdentities } from './usedIdentities';

export interface RunningOwnerService {
  name: ServiceName;
  server: Server;
  url: string;
  close(): Promise<void>;
}

export async function startOwnerService(
  config: Config,
  name: ServiceName,
  logger: Logger,
): Promise<RunningOwnerService> {
  const secret = requiredInternalSecret(config, SECRET_NEEDED_BY.serviceProcess);
  const owned = loadOperationRegistry().operations.filter((op) => op.owner === name);
  const log = logger.child({ service: name });
  const metrics = new ServiceMetrics();
  // Redis: the nonces of the identities accepted (each token serves one call, in
  // whichever process of the service), and Idempotency-Keys where an operation records
  // them (applyDeltas, graph-write)
  const keepsKeys = owned.some((op) => op.idempotencyKey);
  const stores = await openStores(config, log, { metrics, redisClientName: name });
  const { executor, redis } = stores;
  // Deleting a project or discarding a branch asks the worker to purge what is left.
  const purges = owned.some((op) => op.method === 'DELETE')
    ? new PurgeQueue({ config, logger: log })
    : undefined;
  // aborted as close() begins: event streams end (with a retry hint) before the drain
  const stopping = new AbortController();
  const ctx = { executor, config, logger: log, purges, stopping: stopping.signal };
  const handlers = operationHandlers(
    {
      ctx,
      idempotency: keepsKeys
        ? new IdempotencyStore({ redis, ttlSeconds: config.idempotencyTtlSeconds })
        : undefined,
    },
    owned.map((op) => op.operationId),
  );
  const app = internalApi({
    service: name,
    // the gateway forwards X-Graph-Bookmark; this process waits for it and answers its own
    operations: bookmarkedOperations(handlers, new BookmarkTokens(secret)),
    secret,
    executor,
    logger: log,
    maxBodyBytes: config.limits.maxBodyBytes,
    metrics,
    usedIdentities: new RedisUsedIdentities(redis),
  });
  const { server, url } = await listen(app, config);
  log.info({ url, operations: Object.keys(handlers) }, 'service process listening');
  // the largest statements of the operations it serves, planned before a request needs them
  const warmup = warmPlansAtStart(ctx, Object.keys(handlers), {
    stagedImport: rehearseStagedImport,
  });
  return {
    name,
    server,
    url,
    close: () => {
      stopping.abort();
      return stopServing(config, log, {
        server,
        stores,
        closes: [() => warmup.close(), ...(purges ? [() => purges.close()] : [])],
      });
    },
  };
}
