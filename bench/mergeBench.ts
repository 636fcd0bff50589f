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
import { measureInterleaved, Sample, sampleOf } from './stats';

/** Timed runs per merge case and size (each needs forks and its batches of set-up). */
const RUNS = 9;

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

/** Untimed merges of each kind and size before the timed runs (see runMergeBench). */
const WARMUP_MERGES = 3;

/** A size's loaded main, and the branch its next timed merge (or rebase) takes. */
export interface SizedMain {
  size: number;
  projectId: string;
  fixture: Fixture;
  ready: { branchId: string; version: number };
}

/**
 * A main loaded for each of `sizes`, all before any is timed: a bench whose sizes take
 * turns run by run (merges, rebases) needs every one of them at hand.
 */
export async function loadedMains(
  client: BenchClient,
  executor: Executor,
  sizes: number[],
  what: string,
): Promise<SizedMain[]> {
  const mains: SizedMain[] = [];
  for (const size of sizes) {
    process.stderr.write(`${what} @ ${size} nodes: loading fixture on main ...\n`);
    const { projectId, fixture } = await loadedProject(client, executor, size);
    mains.push({ size, projectId, fixture, ready: { branchId: '', version: 0 } });
  }
  return mains;
}

/** A branch `BATCHES` batches ahead of an untouched main: the fast-forward's case. */
async function aheadOfMain(client: BenchClient, main: SizedMain): Promise<void> {
  const branchId = await client.fork(main.projectId);
  main.ready = { branchId, version: await applyBatches(client, branchId, main.fixture, BATCHES) };
}

/**
 * A branch `BATCHES` batches ahead of a main that another branch moved since the fork:
 * the replay's case. Returns the preview's time for that branch, taken here (untimed for
 * the merge) so that both sides of the replay meet the same moment.
 */
async function behindMovedMain(client: BenchClient, main: SizedMain): Promise<number> {
  const [moved, behind] = [await client.fork(main.projectId), await client.fork(main.projectId)];
  const version = await applyBatches(client, behind, main.fixture, BATCHES);
  await client.merge(moved, await applyBatches(client, moved, main.fixture, 1));
  const started = performance.now();
  await client.call('GET', `/v1/branches/${behind}/merge-preview`);
  const preview = performance.now() - started;
  main.ready = { branchId: behind, version };
  return preview;
}

async function mergeReady(client: BenchClient, main: SizedMain, mode: string): Promise<void> {
  const body = await client.merge(main.ready.branchId, main.ready.version);
  if (body.mode !== mode) throw new Error(`expected ${mode}: ${body.mode}`);
}

/**
 * Every size's main is loaded first; then the sizes take turns run by run, each run's
 * branch set up untimed just before its merge. The store's targets compare these medians
 * across sizes, and timed size by size, right after each size's load, they compared the
 * machine's moments instead (the load's checkpoint lands on the first runs of its size).
 * The warm-up runs also take each statement's first plan (the unrolled walks of the
 * nesting limit take seconds to plan) off the timed runs.
 */
export async function runMergeBench(options: {
  client: BenchClient;
  executor: Executor;
  sizes: number[];
}): Promise<Sample[]> {
  const { client, executor } = options;
  const mains = await loadedMains(client, executor, options.sizes, 'merge');
  const first = options.sizes[0] ?? 0;
  process.stderr.write(`merge fast-forward, the sizes in turn ...\n`);
  const fastForwards = await measureInterleaved(
    mains.map((main) => ({
      label: `merge fast-forward (${BATCHES} batches)`,
      size: main.size,
      prepare: () => aheadOfMain(client, main),
      step: () => mergeReady(client, main, 'fast_forward'),
    })),
    first,
    RUNS,
    WARMUP_MERGES,
  );
  process.stderr.write(`merge replay, the sizes in turn ...\n`);
  const previews = mains.map(() => [] as number[]);
  const replays = await measureInterleaved(
    mains.map((main, at) => ({
      label: `merge replay (${BATCHES} batches)`,
      size: main.size,
      prepare: async (timed) => {
        const preview = await behindMovedMain(client, main);
        if (timed) previews[at].push(preview);
      },
      step: () => mergeReady(client, main, 'replay'),
    })),
    first,
    RUNS,
    WARMUP_MERGES,
  );
  const previewSamples = mains.map((main, at) =>
    sampleOf(`merge preview (replay, ${BATCHES} batches)`, main.size, previews[at]),
  );
  return [...fastForwards, ...replays, ...previewSamples];
}
