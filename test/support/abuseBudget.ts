/**
 * Root hooks of the abuse suite (test/abuse/): the integration harness, plus a memory
 * budget. Before the first test and after the last one (while the service still runs)
 * it records the API process's heap, after a forced garbage collection, and Redis's
 * `used_memory`; the run fails when either grew past its bound. The attacks in the
 * suite send large or deep bodies on purpose: what they leave behind must stay small.
 *
 * Bounds:
 * - heap growth of the API process: 128 MiB. The service runs in this process; the
 *   suite's own bookkeeping (mocha, tsx, the contract checker, the test files) is
 *   loaded before the baseline, so what is left is what the service retained from
 *   the attacks, plus about 10 MiB for each extra service a test starts with its own
 *   limits and closes again (a closed service is not collected yet). A 5 MiB body
 *   kept per request would pass the bound within a few dozen requests.
 * - Redis used_memory growth: 32 MiB. Each test leaves rate-limit windows, cached
 *   authentications and bounded idempotency answers behind; a stored 5 MiB echo per
 *   request would pass that bound within a handful of requests.
 */
import type { RedisClient } from '../../shared/redis/redisClient';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { currentHarness, mochaHooks as harnessHooks } from './harness';

const MIB = 1024 * 1024;

export const ABUSE_BOUNDS = {
  heapGrowthBytes: 128 * MIB,
  redisGrowthBytes: 32 * MIB,
};

/** A full collection: global.gc with --expose-gc, or the same function fetched from V8. */
function collector(): () => void {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (exposed) return exposed;
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

async function settledHeap(): Promise<number> {
  const gc = collector();
  // twice, with a turn of the event loop between: weak callbacks and finalizers run
  for (let i = 0; i < 2; i += 1) {
    gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
  return process.memoryUsage().heapUsed;
}

async function redisUsedMemory(redis: RedisClient): Promise<number> {
  const info = await redis.info('memory');
  const match = /^used_memory:(\d+)/m.exec(info);
  if (!match) throw new Error('Redis INFO memory has no used_memory');
  return Number(match[1]);
}

const mib = (bytes: number) => `${(bytes / MIB).toFixed(1)} MiB`;

let baseline: { heap: number; redis: number } | undefined;

export const mochaHooks = {
  async beforeAll(this: Mocha.Context) {
    this.timeout(120_000);
    await harnessHooks.beforeAll.call(this);
    const redis = currentHarness().service.redis;
    baseline = { heap: await settledHeap(), redis: await redisUsedMemory(redis) };
  },
  async afterAll(this: Mocha.Context) {
    this.timeout(60_000);
    try {
      if (!baseline) return;
      const redis = currentHarness().service.redis;
      const after = { heap: await settledHeap(), redis: await redisUsedMemory(redis) };
      const heapGrowth = after.heap - baseline.heap;
      const redisGrowth = after.redis - baseline.redis;
      process.stdout.write(
        `abuse budget: heap ${mib(baseline.heap)} -> ${mib(after.heap)} ` +
          `(bound +${mib(ABUSE_BOUNDS.heapGrowthBytes)}), redis used_memory ` +
          `${mib(baseline.redis)} -> ${mib(after.redis)} (bound +${mib(ABUSE_BOUNDS.redisGrowthBytes)})\n`,
      );
      const problems: string[] = [];
      if (heapGrowth > ABUSE_BOUNDS.heapGrowthBytes)
        problems.push(`the API heap grew by ${mib(heapGrowth)}`);
      if (redisGrowth > ABUSE_BOUNDS.redisGrowthBytes)
        problems.push(`Redis used_memory grew by ${mib(redisGrowth)}`);
      if (problems.length > 0)
        throw new Error(`abuse suite over its memory budget: ${problems.join('; ')}`);
    } finally {
      await harnessHooks.afterAll();
    }
  },
};
