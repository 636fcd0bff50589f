/**
 * Rebase benchmark (`--only rebase`): rebaseBranch through HTTP of a branch of
 * `BATCHES` batches over `MAIN_MERGES` merges into main since its fork, on a main of
 * each size (bulk-loaded, graphFixture.ts). A rebase reads only what the branch changed
 * and what main changed since its base (the merge's change sets), so its cost should not
 * follow main's size: target, the largest size within 1.3x of the smallest. Each run
 * also sums the time of the rebase's own statements (the Executor's per-statement
 * histogram, read from the service's metrics before and after the call): target, the
 * call through the API within 2x of its statements.
 */
import type { Executor } from '../shared/neo4j/executor';
import type { ServiceMetrics } from '../services/platform';
import { BenchClient } from './benchClient';
import { applyBatches, BATCHES, loadedMains } from './mergeBench';
import type { SizedMain } from './mergeBench';
import { measureInterleaved, printTable, Sample, sampleOf, verdict } from './stats';

/** Merges into main after the branch forked. */
export const MAIN_MERGES = 10;
/** Timed rebases of each size: each takes tens of milliseconds, so a median of a few
 * runs swings with the machine (7 runs put 10k at 1.33x of 1k, 15 runs 100k at 0.91x). */
const RUNS = 15;
const WARMUP = 2;

/**
 * Statements run so far and the seconds spent in them: every statement the Executor ran,
 * or only those of the named query `query` (its time includes any lock wait it met).
 */
export async function statementTotals(
  metrics: ServiceMetrics,
  query?: string,
): Promise<{ seconds: number; count: number }> {
  const text = await metrics.registry.metrics();
  const totals = { seconds: 0, count: 0 };
  for (const line of text.split('\n')) {
    if (query !== undefined && !line.includes(`query="${query}"`)) continue;
    if (line.startsWith('gds_neo4j_query_duration_seconds_sum'))
      totals.seconds += Number(line.split(' ').pop());
    if (line.startsWith('gds_neo4j_query_duration_seconds_count'))
      totals.count += Number(line.split(' ').pop());
  }
  return totals;
}

const statementSeconds = async (metrics: ServiceMetrics) =>
  (await statementTotals(metrics)).seconds;

export interface RebaseFigures {
  samples: Sample[];
}

/** A branch of `BATCHES` batches, and `MAIN_MERGES` merges into main since its fork. */
async function behindMergedMain(client: BenchClient, main: SizedMain): Promise<void> {
  const branchId = await client.fork(main.projectId);
  const version = await applyBatches(client, branchId, main.fixture, BATCHES);
  for (let i = 0; i < MAIN_MERGES; i++) {
    const moved = await client.fork(main.projectId);
    await client.merge(moved, await applyBatches(client, moved, main.fixture, 1));
  }
  main.ready = { branchId, version };
}

async function rebaseReady(client: BenchClient, main: SizedMain): Promise<void> {
  const body = await client.call('POST', `/v1/branches/${main.ready.branchId}/rebase`, {
    expected_version: main.ready.version,
  });
  if (body.rebased !== true) throw new Error(`expected a rebase: ${JSON.stringify(body)}`);
}

/**
 * Every size's main is loaded first; then the sizes take turns run by run, each run's
 * branch and main's merges set up untimed just before its rebase: the target compares
 * these medians across sizes, and timed size by size, right after each size's load,
 * they compared the machine's moments instead. The warm-up runs take each statement's
 * first plan off the timed runs.
 */
export async function runRebaseBench(options: {
  client: BenchClient;
  executor: Executor;
  metrics: ServiceMetrics;
  sizes: number[];
}): Promise<RebaseFigures> {
  const { client, executor, metrics } = options;
  const mains = await loadedMains(client, executor, options.sizes, 'rebase');
  process.stderr.write(`rebase, the sizes in turn ...\n`);
  const statements = mains.map(() => [] as number[]);
  const rebases = await measureInterleaved(
    mains.map((main, at) => ({
      label: `rebase (${BATCHES} batches over ${MAIN_MERGES} merges)`,
      size: main.size,
      prepare: () => behindMergedMain(client, main),
      step: async (timed) => {
        const before = await statementSeconds(metrics);
        await rebaseReady(client, main);
        const spent = (await statementSeconds(metrics)) - before;
        if (timed) statements[at].push(spent * 1000);
      },
    })),
    options.sizes[0] ?? 0,
    RUNS,
    WARMUP,
  );
  const own = mains.map((main, at) => sampleOf(`its statements`, main.size, statements[at]));
  return { samples: [...rebases, ...own] };
}

/** The figures, each target and whether it holds. */
export function reportRebase(figures: RebaseFigures, sizes: number[]): void {
  printTable('Rebase (rebaseBranch)', figures.samples);
  const api = (size: number) =>
    figures.samples.find((s) => s.size === size && s.label.startsWith('rebase'));
  const own = (size: number) =>
    figures.samples.find((s) => s.size === size && s.label === 'its statements');
  const [small, large] = [sizes[0], sizes[sizes.length - 1]];
  if (large !== small) {
    const r = (api(large)?.p50 ?? NaN) / (api(small)?.p50 ?? NaN);
    console.log(
      `rebase at ${large} against ${small} nodes: ${r.toFixed(2)}x (target within 1.3x): ${verdict(r <= 1.3)}`,
    );
  } else {
    console.log(
      `rebase at ${large} against ${small} nodes: one size only (target within 1.3x at 100k against 1k)`,
    );
  }
  for (const size of sizes) {
    const r = (api(size)?.p50 ?? NaN) / (own(size)?.p50 ?? NaN);
    console.log(
      `rebase through the API against its statements at ${size} nodes: ${r.toFixed(2)}x (target within 2x): ${verdict(r <= 2)}`,
    );
  }
}
