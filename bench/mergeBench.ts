/**
 * Merge benchmark: merge into main through HTTP on a main of a given size
 * (bulk-loaded, see graphFixture.ts): a fast-forward of a branch with `BATCHES`
 * batches, a replay of as many recorded batches onto a main that moved, and the
 * preview of that replay. Each run sets up its own branches; only the merge (or
 * preview) call is timed. A merge looks only at what changed on either side since the
 * fork, so its cost should not follow main's size.
 */
import { randomUUID } from 'node:crypto';
import type { Executor } from '../shared/neo4j/executor';
import { BenchClient } from './benchClient';
import { Fixture, loadedProject, pick } from './graphFixture';
import { measureEach, Sample, sampleOf } from './stats';

/** Timed runs per merge case (each needs forks and its batches of set-up). */
const RUNS = 5;

/** Batches on the merged branch. */
export const BATCHES = 10;

/** One small batch: a node in a random boundary, wired from a random fixture node. */
export function smallBatch(fixture: Fixture): unknown[] {
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

export async function applyBatches(
  client: BenchClient,
  branchId: string,
  fixture: Fixture,
  n: number,
  from = 0,
): Promise<number> {
  let version = from;
  for (let i = 0; i < n; i++)
    version = await client.applyDeltas(branchId, smallBatch(fixture), version);
  return version;
}

/**
 * Merges and previews, untimed, before the first size: a statement's first plan (the
 * unrolled walks of the nesting limit) takes seconds, which would otherwise land on the
 * smallest size and flatter every ratio against it.
 */
async function warmUp(client: BenchClient, projectId: string, fixture: Fixture): Promise<void> {
  process.stderr.write(`  warming up: ${WARMUP_MERGES} merges of each kind ...\n`);
  for (let i = 0; i < WARMUP_MERGES; i++) {
    const [moved, behind] = [await client.fork(projectId), await client.fork(projectId)];
    const version = await applyBatches(client, behind, fixture, BATCHES);
    await client.merge(moved, await applyBatches(client, moved, fixture, 1));
    await client.call('GET', `/v1/branches/${behind}/merge-preview`);
    await client.merge(behind, version);
  }
}

/** Untimed merges of each kind before the first size. */
const WARMUP_MERGES = 3;

export async function runMergeBench(options: {
  client: BenchClient;
  executor: Executor;
  sizes: number[];
}): Promise<Sample[]> {
  const { client, executor } = options;
  const samples: Sample[] = [];
  for (const size of options.sizes) {
    process.stderr.write(`merge @ ${size} nodes: loading fixture on main ...\n`);
    const project = await loadedProject(client, executor, size);
    const { fixture } = project;
    let ready = { branchId: '', version: 0 };
    if (size === options.sizes[0]) await warmUp(client, project.projectId, fixture);
    samples.push(
      await measureEach(
        `merge fast-forward (${BATCHES} batches)`,
        size,
        RUNS,
        async () => {
          const branchId = await client.fork(project.projectId);
          ready = { branchId, version: await applyBatches(client, branchId, fixture, BATCHES) };
        },
        async () => {
          const body = await client.merge(ready.branchId, ready.version);
          if (body.mode !== 'fast_forward') throw new Error(`expected fast_forward: ${body.mode}`);
        },
      ),
    );
    const previews: number[] = [];
    samples.push(
      await measureEach(
        `merge replay (${BATCHES} batches)`,
        size,
        RUNS,
        async () => {
          const [moved, behind] = [
            await client.fork(project.projectId),
            await client.fork(project.projectId),
          ];
          const version = await applyBatches(client, behind, fixture, BATCHES);
          await client.merge(moved, await applyBatches(client, moved, fixture, 1));
          const started = performance.now();
          await client.call('GET', `/v1/branches/${behind}/merge-preview`);
          previews.push(performance.now() - started);
          ready = { branchId: behind, version };
        },
        async () => {
          const body = await client.merge(ready.branchId, ready.version);
          if (body.mode !== 'replay') throw new Error(`expected replay: ${body.mode}`);
        },
      ),
    );
    samples.push(sampleOf(`merge preview (replay, ${BATCHES} batches)`, size, previews));
  }
  return samples;
}
