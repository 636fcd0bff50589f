/**
 * Probes:
 * - GET /healthz, liveness: 200 while the process is up and serving HTTP; it
 *   touches no dependency, so an outage of Neo4j or Redis never gets a healthy
 *   process restarted (Kubernetes livenessProbe);
 * - GET /readyz, readiness: 200 when Neo4j and Redis both answer within a short
 *   bound, 503 service_unavailable (with Retry-After) otherwise, and 503 while the
 *   service drains for shutdown (Kubernetes readinessProbe).
 */
import type { RedisClient } from '../../shared/redis/redisClient';
import { ServiceUnavailableError } from '../../shared/errors/domainErrors';
import { ok, OperationTable } from '../../shared/http/operation';
import type { Executor } from '../../shared/neo4j/executor';
import { withinMs } from '../../shared/redis/queueConnection';

export interface HealthDeps {
  executor: Executor;
  redis: RedisClient;
  version: string;
  /** True once shutdown has begun: readiness fails so traffic moves elsewhere. */
  draining?: () => boolean;
}

function answers(ms: number, work: () => Promise<unknown>, what: string): Promise<boolean> {
  return withinMs(ms, Promise.resolve().then(work), what).then(
    () => true,
    () => false,
  );
}

export function healthRoutes(deps: HealthDeps): OperationTable {
  return {
    getHealth: async () => ok({ status: 'ok', version: deps.version }),
    getReady: async () => {
      if (deps.draining?.()) throw new ServiceUnavailableError('not ready: shutting down', 1);
      const [neo4j, redis] = await Promise.all([
        answers(2000, () => deps.executor.verifyConnectivity(), 'neo4j'),
        answers(1000, () => deps.redis.ping(), 'redis'),
      ]);
      if (!neo4j || !redis) {
        throw new ServiceUnavailableError(
          `not ready: neo4j ${neo4j ? 'up' : 'down'}, redis ${redis ? 'up' : 'down'}`,
        );
      }
      return ok({ status: 'ok', neo4j: 'up', redis: 'up', version: deps.version });
    },
  };
}
