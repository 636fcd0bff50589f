/**
 * Gauges of the stores a process depends on, for the dashboard and the alerts
 * (deploy/observability/):
 * - gds_dependency_up{dependency="neo4j"|"redis"}: 1 while it answers within the bounds
 *   the readiness probe uses (Neo4j 2 s, Redis 1 s), else 0;
 * - gds_redis_used_memory_bytes / gds_redis_maxmemory_bytes{node}: Redis's own figures
 *   (INFO memory) of each master: a full Redis refuses writes (noeviction), so the
 *   ratio is what to alert on before queued jobs and Idempotency-Keys are refused;
 * - gds_maintenance: 1 while the maintenance flag is set (writes refused, see
 *   maintenanceFlag.ts).
 * Like the queue depths, they are read at most once per STORE_READ_EVERY_MS however
 * often (or however many at once) scrapes come; a scrape in between reuses the last read.
 */
import { Cluster, Redis } from 'ioredis';
import { Gauge, Registry } from 'prom-client';
import type { Executor } from '../../shared/neo4j/executor';
import { withinMs } from '../../shared/redis/queueConnection';
import type { RedisClient } from '../../shared/redis/redisClient';
import type { MaintenanceFlag } from './maintenanceFlag';

export const STORE_READ_EVERY_MS = 5000;

export interface WatchedStores {
  executor: Executor;
  redis: RedisClient;
  maintenance?: MaintenanceFlag;
}

interface StoreReading {
  neo4j: boolean;
  redis: boolean;
  memory: { node: string; used: number; max: number }[];
  maintenance: boolean;
}

function answers(ms: number, work: () => Promise<unknown>, what: string): Promise<boolean> {
  return withinMs(ms, Promise.resolve().then(work), what).then(
    () => true,
    () => false,
  );
}

/** used_memory and maxmemory of one Redis node, from INFO memory. */
async function memoryOf(node: Redis): Promise<{ node: string; used: number; max: number }> {
  const info = await withinMs(1000, node.info('memory'), 'redis info');
  const field = (name: string) => Number(new RegExp(`^${name}:(\\d+)`, 'm').exec(info)?.[1] ?? 0);
  const { host, port } = node.options;
  return { node: `${host}:${port}`, used: field('used_memory'), max: field('maxmemory') };
}

async function readStores(stores: WatchedStores): Promise<StoreReading> {
  const { executor, redis } = stores;
  const nodes = redis instanceof Cluster ? redis.nodes('master') : [redis];
  const [neo4j, redisUp, memory, maintenance] = await Promise.all([
    answers(2000, () => executor.verifyConnectivity(), 'neo4j'),
    answers(1000, () => redis.ping(), 'redis'),
    Promise.allSettled(nodes.map(memoryOf)),
    stores.maintenance?.current().then((reason) => reason !== null) ?? false,
  ]);
  return {
    neo4j,
    redis: redisUp,
    memory: memory.flatMap((m) => (m.status === 'fulfilled' ? [m.value] : [])),
    maintenance,
  };
}

/** Registers the gauges above in `registry`, read from `stores`. */
export function registerStoreGauges(registry: Registry, stores: WatchedStores): void {
  let reading: Promise<StoreReading> | undefined;
  let readAt = 0;
  const latest = () => {
    if (!reading || Date.now() - readAt >= STORE_READ_EVERY_MS) {
      readAt = Date.now();
      reading = readStores(stores);
    }
    return reading;
  };
  const registers = [registry];
  new Gauge({
    name: 'gds_dependency_up',
    help: 'Whether a store the service depends on answers (1) or not (0), as last probed.',
    labelNames: ['dependency'],
    registers,
    async collect() {
      const read = await latest();
      this.set({ dependency: 'neo4j' }, read.neo4j ? 1 : 0);
      this.set({ dependency: 'redis' }, read.redis ? 1 : 0);
    },
  });
  const memoryGauge = (name: string, help: string, pick: 'used' | 'max') =>
    new Gauge({
      name,
      help,
      labelNames: ['node'],
      registers,
      async collect() {
        const read = await latest();
        this.reset();
        for (const m of read.memory) this.set({ node: m.node }, m[pick]);
      },
    });
  memoryGauge('gds_redis_used_memory_bytes', 'Redis used_memory of each master.', 'used');
  memoryGauge('gds_redis_maxmemory_bytes', 'Redis maxmemory of each master (0: no cap).', 'max');
  new Gauge({
    name: 'gds_maintenance',
    help: 'Whether the maintenance flag is set (1: requests that could write are refused).',
    registers,
    async collect() {
      this.set((await latest()).maintenance ? 1 : 0);
    },
  });
}
