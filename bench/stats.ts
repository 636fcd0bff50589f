/** Timing helpers for the benchmarks: run a step N times, report p50/p95 in milliseconds. */

export interface Sample {
  label: string;
  size: number;
  p50: number;
  p95: number;
  runs: number;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank];
}

export async function measure(
  label: string,
  size: number,
  runs: number,
  step: (i: number) => Promise<void>,
  warmup = 2,
): Promise<Sample> {
  for (let i = 0; i < warmup; i++) await step(-1 - i);
  return measureEach(label, size, runs, async () => undefined, step);
}

/** Like measure, without warm-up, and each run has an untimed `setup` first. */
export async function measureEach(
  label: string,
  size: number,
  runs: number,
  setup: () => Promise<void>,
  step: (i: number) => Promise<void>,
): Promise<Sample> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    await setup();
    const started = performance.now();
    await step(i);
    times.push(performance.now() - started);
  }
  const sample = sampleOf(label, size, times);
  process.stderr.write(
    `  ${label} @ ${size}: p50 ${sample.p50.toFixed(1)} ms, p95 ${sample.p95.toFixed(1)} ms (${runs} runs)\n`,
  );
  return sample;
}

/**
 * Several ways of doing the same thing, timed run by run in turn (the order rotating each
 * run) after `warmup` untimed runs of each: on a shared machine whose speed drifts, their
 * ratios then compare the same moments, which timing each in a block of its own does not.
 * `beforeRun`, untimed, starts each run (and each warm-up run): for instance, to choose the
 * target every side of that run works on. A side's `prepare`, untimed, runs just before
 * each of its steps; both are told whether the run is timed (not a warm-up), for a side
 * that keeps figures of its own beside the timing. A side's `size` (else `size`) is the
 * graph size its sample is of: sides on graphs of several sizes taking turns compare the
 * sizes at the same moments.
 */
export async function measureInterleaved(
  sides: {
    label: string;
    step: (timed: boolean) => Promise<void>;
    prepare?: (timed: boolean) => Promise<void>;
    size?: number;
  }[],
  size: number,
  runs: number,
  warmup = 2,
  beforeRun: () => void = () => undefined,
): Promise<Sample[]> {
  for (let i = 0; i < warmup; i++) {
    beforeRun();
    for (const side of sides) {
      await side.prepare?.(false);
      await side.step(false);
    }
  }
  const times = sides.map(() => [] as number[]);
  for (let i = 0; i < runs; i++) {
    beforeRun();
    for (let k = 0; k < sides.length; k++) {
      const at = (i + k) % sides.length;
      await sides[at].prepare?.(true);
      const started = performance.now();
      await sides[at].step(true);
      times[at].push(performance.now() - started);
    }
  }
  return sides.map((side, at) => {
    const sample = sampleOf(side.label, side.size ?? size, times[at]);
    process.stderr.write(
      `  ${side.label} @ ${sample.size}: p50 ${sample.p50.toFixed(1)} ms, p95 ${sample.p95.toFixed(1)} ms (${runs} runs, in turn)\n`,
    );
    return sample;
  });
}

/** The p50 and p95 of `times` (milliseconds, any order). */
export function sampleOf(label: string, size: number, times: number[]): Sample {
  const sorted = [...times].sort((a, b) => a - b);
  return {
    label,
    size,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    runs: times.length,
  };
}

/** Columns are sizes ("N nodes") unless `column` names them otherwise. */
export function printTable(
  title: string,
  samples: Sample[],
  column: (size: number) => string = (n) => `${n} nodes`,
): void {
  const sizes = [...new Set(samples.map((s) => s.size))].sort((a, b) => a - b);
  const labels = [...new Set(samples.map((s) => s.label))];
  const cell = (s?: Sample) => (s ? `${s.p50.toFixed(1)} / ${s.p95.toFixed(1)}` : '-');
  const header = ['operation (p50 / p95 ms)', ...sizes.map(column)];
  const rows = labels.map((label) => [
    label,
    ...sizes.map((n) => cell(samples.find((s) => s.label === label && s.size === n))),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cols: string[]) => `| ${cols.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  console.log(`\n${title}`);
  console.log(line(header));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const row of rows) console.log(line(row));
}

/** How a figure stands against its target, the same words in every report. */
export const verdict = (holds: boolean): string => (holds ? 'holds' : 'NOT MET');

export function ratio(a: Sample | undefined, b: Sample | undefined): string {
  if (!a || !b) return '-';
  return `${(a.p50 / b.p50).toFixed(2)}x`;
}
