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
import { applyBatches, BATCHES } from './mergeBench';
import { loadFixture } from './graphFixture';
import { measureEach, printTable, Sample, sampleOf, verdict } from './stats';

/** Merges into main after the branch forked. */
export const MAIN_MERGES = 10;
const RUNS = 5;
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

export async function runRebaseBench(options: {
  client: BenchClient;
  executor: Executor;
  metrics: ServiceMetrics;
  sizes: number[];
}): Promise<RebaseFigures> {
  const { client, executor, metrics } = options;
  const samples: Sample[] = [];
  for (const size of options.sizes) {
    process.stderr.write(`rebase @ ${size} nodes: loading fixture on main ...\n`);
    const project = await client.createProject();
    const fixture = await loadFixture(executor, project.mainId, size);
    let ready = { branchId: '', version: 0 };
    const setup = async () => {
      const branchId = await client.fork(project.projectId);
      const version = await applyBatches(client, branchId, fixture, BATCHES);
      for (let i = 0; i < MAIN_MERGES; i++) {
        const moved = await client.fork(project.projectId);
        await client.merge(moved, await applyBatches(client, moved, fixture, 1));
      }
      ready = { branchId, version };
    };
    const rebase = async () => {
      const body = await client.call('POST', `/v1/branches/${ready.branchId}/rebase`, {
        expected_version: ready.version,
      });
      if (body.rebased !== true) throw new Error(`expected a rebase: ${JSON.stringify(body)}`);
    };
    if (size === options.sizes[0]) {
      process.stderr.write(`  warming up: ${WARMUP} rebases ...\n`);
      for (let i = 0; i < WARMUP; i++) {
        await setup();
        await rebase();
      }
    }
    const statements: number[] = [];
    samples.push(
      await measureEach(
        `rebase (${BATCHES} batches over ${MAIN_MERGES} merges)`,
        size,
        RUNS,
        setup,
        async () => {
          const before = await statementSeconds(metrics);
          await rebase();
          statements.push((await statementSeconds(metrics)) - before);
        },
      ),
    );
    samples.push(
      sampleOf(
        `its statements`,
        size,
        statements.map((s) => s * 1000),
      ),
    );
  }
  return { samples };
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
