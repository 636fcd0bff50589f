/**
 * Merge benchmark: merge into main through HTTP on a main of a given size
 * (bulk-loaded, see graphFixture.ts): a fast-forward of a branch with 100 batches,
 * a replay of 100 recorded batches onto a main that moved, and the preview of
 * that replay. Each run sets up its own branches; only the merge (or preview) call
 * is timed.
 */
import { randomUUID } from 'node:crypto';
import type { Executor } from '../shared/neo4j/executor';
import { BenchClient } from './benchClient';
import { Fixture, loadFixture, pick } from './graphFixture';
import { measureEach, printTable, Sample, sampleOf } from './stats';

/** Timed runs per merge case (each needs forks and 100 batches of set-up). */
const RUNS = 5;

/** Above this size the merge bench is skipped (each run forks main twice). */
export const MERGE_BENCH_MAX_SIZE = 10_000;

/** One small batch: a node in a random boundary, wired from a random fixture node. */
function smallBatch(fixture: Fixture): unknown[] {
  const [id, input] = [randomUUID(), randomUUID()];
  return [
    {
      type: 'add_node',
      node: {
        id,
        parent_id: pick(fixture.boundaries),
        data: { name: `m${id.slice(0, 12)}`, inputs: [{ id: input, name: 'in', type: 'int' }] },
      },
    },
    {
      type: 'add_edge',
      edge: { id: randomUUID(), source_handle: pick(fixture.nodes).output, target_handle: input },
    },
  ];
}

async function applyBatches(client: BenchClient, branchId: string, fixture: Fixture, n: number) {
  let version = 0;
  for (let i = 0; i < n; i++)
    version = await client.applyDeltas(branchId, smallBatch(fixture), version);
  return version;
}

function merge(client: BenchClient, branchId: string, version: number) {
  return client.call('POST', `/v1/branches/${branchId}/merge`, { expected_version: version });
}

export async function runMergeBench(options: {
  client: BenchClient;
  executor: Executor;
  sizes: number[];
}): Promise<Sample[]> {
  const { client, executor } = options;
  const samples: Sample[] = [];
  for (const size of options.sizes.filter((s) => s <= MERGE_BENCH_MAX_SIZE)) {
    process.stderr.write(`merge @ ${size} nodes: loading fixture on main ...\n`);
    const project = await client.createProject();
    const fixture = await loadFixture(executor, project.mainId, size);
    let ready = { branchId: '', version: 0 };
    samples.push(
      await measureEach(
        'merge fast-forward (100 batches)',
        size,
        RUNS,
        async () => {
          const branchId = await client.fork(project.projectId);
          ready = { branchId, version: await applyBatches(client, branchId, fixture, 100) };
        },
        async () => {
          const body = await merge(client, ready.branchId, ready.version);
          if (body.mode !== 'fast_forward') throw new Error(`expected fast_forward: ${body.mode}`);
        },
      ),
    );
    const previews: number[] = [];
    samples.push(
      await measureEach(
        'merge replay (100 batches)',
        size,
        RUNS,
        async () => {
          const [moved, behind] = [
            await client.fork(project.projectId),
            await client.fork(project.projectId),
          ];
          const version = await applyBatches(client, behind, fixture, 100);
          await merge(client, moved, await applyBatches(client, moved, fixture, 1));
          const started = performance.now();
          await client.call('GET', `/v1/branches/${behind}/merge-preview`);
          previews.push(performance.now() - started);
          ready = { branchId: behind, version };
        },
        async () => {
          const body = await merge(client, ready.branchId, ready.version);
          if (body.mode !== 'replay') throw new Error(`expected replay: ${body.mode}`);
        },
      ),
    );
    samples.push(sampleOf('merge preview (replay, 100 batches)', size, previews));
  }
  return samples;
}

export function reportMerge(samples: Sample[]): void {
  if (samples.length > 0) printTable('Merge into main', samples);
}
