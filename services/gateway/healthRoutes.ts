/** /healthz and /readyz: 200 when Neo4j and Redis both answer, 503 otherwise. */
import type { Redis } from 'ioredis';
import { ServiceUnavailableError } from '../../shared/errors/domainErrors';
import { ok, OperationTable } from '../../shared/http/operation';
import type { Executor } from '../../shared/neo4j/executor';

async function within<T>(ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('timeout')), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

export function healthRoutes(deps: {
  executor: Executor;
  redis: Redis;
  version: string;
}): OperationTable {
  const check = async () => {
    const [neo4j, redis] = await Promise.all([
      within(2000, deps.executor.verifyConnectivity()).then(
        () => true,
        () => false,
      ),
      within(1000, deps.redis.ping()).then(
        () => true,
        () => false,
      ),
    ]);
    if (!neo4j || !redis) {
      throw new ServiceUnavailableError(
        `not ready: neo4j ${neo4j ? 'up' : 'down'}, redis ${redis ? 'up' : 'down'}`,
      );
    }
    return ok({ status: 'ok', neo4j: 'up', redis: 'up', version: deps.version });
  };
  return { getHealth: check, getReady: check };
}
