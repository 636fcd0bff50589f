/**
 * Concurrent writers benchmark (`--only writers`): write throughput when several writers
 * apply batches at once. On a main of each size (bulk-loaded, graphFixture.ts), writers
 * each send 100-delta batches (writeBench.ts batchDeltas: add_node with an input port and
 * add_edge from a fixture node's output) through the API to a working branch of their
 * own, each sending its next batch when its last is answered, for a fixed time. Three
 * layouts, run in turn round by round (a shared machine's speed drifts):
 *   - one writer alone on one branch;
 *   - `WRITERS` writers on `WRITERS` branches of ONE project (the figure users judge);
 *   - `WRITERS` writers on `WRITERS` projects, a branch each, every main of the same size.
 * Each layout gives the aggregate deltas per second and the p50/p95 of a batch's latency.
 *
 * Branches of one project hold no lock in common: each batch writes the project's feed
 * event pending (services/feed writePendingFeedEvent: a CREATE, no head), and its seq is
 * given after commit by the feed's readers. Two figures show that: the mean time of that
 * statement (read from the Executor's per-statement histogram) on one project against a
 * project per writer, and the one-project layout's batch p50 against the layout of a
 * project per writer, the same load with no lock in common (target: within
 * ONE_PROJECT_TARGET).
 */
import { availableParallelism } from 'node:os';
import type { Executor } from '../shared/neo4j/executor';
import type { ServiceMetrics } from '../services/platform';
import type { BenchClient } from './benchClient';
import { Fixture, loadedProject } from './graphFixture';
import { statementTotals } from './rebaseBench';
import { percentile, verdict } from './stats';
import { batchDeltas } from './writeBench';

export const WRITERS = 10;
export const BATCH_DELTAS = 100;
/** The statement that writes a batch's feed event (services/feed/store/feedQueries.ts). */
export const FEED_EVENT_STATEMENT = 'writePendingFeedEvent';
/** One project's writers against a project per writer, batch p50: they do not serialize. */
export const ONE_PROJECT_TARGET = 1.3;
const ROUNDS = 2;

export const LAYOUTS = {
  single: '1 writer, one branch',
  branches: `${WRITERS} writers, ${WRITERS} branches of one project`,
  projects: `${WRITERS} writers, ${WRITERS} projects (a branch each)`,
} as const;
export type Layout = keyof typeof LAYOUTS;

/** One writer: its branch, the version its next batch expects, the main it wires from. */
interface Writer {
  branchId: string;
  version: number;
  fixture: Fixture;
}

/** A layout's timed batches at one size, its rounds summed. */
export interface WritersRun {
  size: number;
  layout: Layout;
  writers: number;
  /** Milliseconds from each batch's request to its answer. */
  latencies: number[];
  deltas: number;
  /** Wall time of the rounds, each from its first request to its last answer. */
  seconds: number;
  /** writePendingFeedEvent statements run meanwhile and the seconds spent in them. */
  feedEvent: { count: number; seconds: number };
  /** CPU seconds this process (service and client) used meanwhile. */
  nodeCpuSeconds: number;
}

export interface WritersFigures {
  runs: WritersRun[];
  secondsPerLayout: number;
  cores: number;
}

const emptyRun = (size: number, layout: Layout, writers: number): WritersRun => ({
  size,
  layout,
  writers,
  latencies: [],
  deltas: 0,
  seconds: 0,
  feedEvent: { count: 0, seconds: 0 },
  nodeCpuSeconds: 0,
});

/**
 * Every writer applies batches until `seconds` have passed (a batch sent before then is
 * awaited and counted); the answers go into `run`.
 */
async function drive(
  client: BenchClient,
  metrics: ServiceMetrics,
  writers: Writer[],
  seconds: number,
  run: WritersRun | null,
): Promise<void> {
  const feedBefore = await statementTotals(metrics, FEED_EVENT_STATEMENT);
  const cpuBefore = process.cpuUsage();
  const start = performance.now();
  const end = start + seconds * 1000;
  const latencies: number[] = [];
  await Promise.all(
    writers.map(async (writer) => {
      while (performance.now() < end) {
        const { deltas } = batchDeltas(writer.fixture, BATCH_DELTAS);
        const started = performance.now();
        writer.version = await client.applyDeltas(writer.branchId, deltas, writer.version);
        latencies.push(performance.now() - started);
      }
    }),
  );
  const elapsed = (performance.now() - start) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const feedAfter = await statementTotals(metrics, FEED_EVENT_STATEMENT);
  if (!run) return;
  run.latencies.push(...latencies);
  run.deltas += latencies.length * BATCH_DELTAS;
  run.seconds += elapsed;
  run.feedEvent.count += feedAfter.count - feedBefore.count;
  run.feedEvent.seconds += feedAfter.seconds - feedBefore.seconds;
  run.nodeCpuSeconds += (cpu.user + cpu.system) / 1e6;
}

async function writerOf(
  client: BenchClient,
  project: { projectId: string; fixture: Fixture },
): Promise<Writer> {
  return { branchId: await client.fork(project.projectId), version: 0, fixture: project.fixture };
}

export async function runWritersBench(options: {
  client: BenchClient;
  executor: Executor;
  metrics: ServiceMetrics;
  sizes: number[];
  /** Timed seconds of each layout at each size (split over the rounds). */
  seconds: number;
}): Promise<WritersFigures> {
  const { client, executor, metrics, seconds } = options;
  const runs: WritersRun[] = [];
  for (const size of options.sizes) {
    process.stderr.write(`writers @ ${size} nodes: loading ${WRITERS} mains ...\n`);
    const projects = [];
    for (let i = 0; i < WRITERS; i++) projects.push(await loadedProject(client, executor, size));
    const [shared] = projects;
    const writers: Record<Layout, Writer[]> = {
      single: [await writerOf(client, shared)],
      branches: [],
      projects: [],
    };
    for (let i = 0; i < WRITERS; i++) {
      writers.branches.push(await writerOf(client, shared));
      writers.projects.push(await writerOf(client, projects[i]));
    }
    const layouts = Object.keys(LAYOUTS) as Layout[];
    // untimed: the JVM compiles the batch's statements' plans and hot paths first
    const warmup = size === options.sizes[0] ? seconds / 2 : seconds / 4;
    process.stderr.write(`  warming up: ${warmup} s a layout ...\n`);
    for (const layout of layouts) await drive(client, metrics, writers[layout], warmup, null);
    const measured = layouts.map((layout) => emptyRun(size, layout, writers[layout].length));
    for (let round = 0; round < ROUNDS; round++) {
      for (let k = 0; k < layouts.length; k++) {
        const at = (round + k) % layouts.length;
        await drive(client, metrics, writers[layouts[at]], seconds / ROUNDS, measured[at]);
      }
    }
    for (const run of measured) {
      const f = figuresOf(run);
      process.stderr.write(
        `  ${LAYOUTS[run.layout]} @ ${size}: ${f.deltasPerSecond.toFixed(0)} deltas/s, p50 ${f.p50.toFixed(1)} ms, p95 ${f.p95.toFixed(1)} ms (${run.latencies.length} batches)\n`,
      );
    }
    runs.push(...measured);
  }
  return { runs, secondsPerLayout: seconds, cores: availableParallelism() };
}

/** A run's figures: throughput, latency percentiles, and the feed event's statement. */
export function figuresOf(run: WritersRun) {
  const sorted = [...run.latencies].sort((a, b) => a - b);
  const mean = sorted.reduce((sum, t) => sum + t, 0) / sorted.length;
  const feedEventMs = (run.feedEvent.seconds * 1000) / run.feedEvent.count;
  return {
    batches: sorted.length,
    deltasPerSecond: run.deltas / run.seconds,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    mean,
    feedEventMs,
    /** The feed event statement's share of a batch's mean latency. */
    feedEventShare: feedEventMs / mean,
    nodeCpu: run.nodeCpuSeconds / run.seconds,
  };
}

/** The table, then each figure of the one-project layout against the other two. */
export function reportWriters(figures: WritersFigures): void {
  const { runs, secondsPerLayout, cores } = figures;
  const ms = (n: number) => n.toFixed(1);
  const x = (n: number) => `${n.toFixed(2)}x`;
  console.log(
    `\nConcurrent writers (applyDeltas through the API): ${BATCH_DELTAS}-delta batches (add_node with a port + add_edge from a main node's output), each writer's next batch sent on its last answer; ${secondsPerLayout} s a layout in ${ROUNDS} rounds, the layouts in turn; ${cores} cores`,
  );
  console.log(
    `| main nodes | layout | batches | deltas/s | batch p50 / p95 ms | ${FEED_EVENT_STATEMENT} mean ms | its share of the mean batch | Node CPU s/s |`,
  );
  console.log('|---|---|---|---|---|---|---|---|');
  for (const run of runs) {
    const f = figuresOf(run);
    console.log(
      `| ${run.size} | ${LAYOUTS[run.layout]} | ${f.batches} | ${f.deltasPerSecond.toFixed(0)} | ${ms(f.p50)} / ${ms(f.p95)} | ${ms(f.feedEventMs)} | ${(100 * f.feedEventShare).toFixed(1)}% | ${f.nodeCpu.toFixed(2)} |`,
    );
  }
  console.log(
    '\nConcurrent writers (this run; the scaling is reported, one project against a project per writer has a target):',
  );
  for (const size of [...new Set(runs.map((r) => r.size))]) {
    const of = (layout: Layout) => {
      const run = runs.find((r) => r.size === size && r.layout === layout);
      return run ? figuresOf(run) : null;
    };
    const [one, many, apart] = [of('single'), of('branches'), of('projects')];
    if (!one || !many || !apart) continue;
    console.log(
      `  @ ${size}: ${LAYOUTS.branches}: ${many.deltasPerSecond.toFixed(0)} deltas/s aggregate, p50 ${ms(many.p50)} ms, p95 ${ms(many.p95)} ms; ${LAYOUTS.single}: ${one.deltasPerSecond.toFixed(0)} deltas/s, p50 ${ms(one.p50)} ms, p95 ${ms(one.p95)} ms`,
    );
    console.log(
      `    scaling, aggregate deltas/s ${WRITERS} writers / 1: ${x(many.deltasPerSecond / one.deltasPerSecond)} (reported); batch p50 ${WRITERS} writers / 1: ${x(many.p50 / one.p50)} (reported: lock waits between branches of one project must not serialize them; the writers share ${cores} cores, so past their saturation this ratio grows whatever the locks: the layout of a project per writer is the same load with no lock in common)`,
    );
    const apartRatio = many.p50 / apart.p50;
    console.log(
      `    one project / a project per writer (${WRITERS} writers each): deltas/s ${x(many.deltasPerSecond / apart.deltasPerSecond)}, batch p50 ${x(apartRatio)} (${ms(many.p50 - apart.p50)} ms), p95 ${x(many.p95 / apart.p95)}: target batch p50 within ${ONE_PROJECT_TARGET}x (the project's writers do not serialize): ${verdict(apartRatio <= ONE_PROJECT_TARGET)}`,
    );
    console.log(
      `    the feed event (${FEED_EVENT_STATEMENT}, no lock shared by the project's writers): ${ms(many.feedEventMs)} ms a batch on one project against ${ms(apart.feedEventMs)} ms with a project per writer and ${ms(one.feedEventMs)} ms alone (${(100 * many.feedEventShare).toFixed(1)}% of the ${WRITERS}-writer mean batch, ${ms(many.mean)} ms)`,
    );
  }
}
