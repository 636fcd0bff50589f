/**
 * The resident memory of a running process (Linux's /proc/PID/status VmRSS), sampled
 * while some work runs: what a streamed read costs the service that answers it.
 */
import { readFile } from 'node:fs/promises';

/** Sampling interval: short enough to see a burst of a read's pages. */
const EVERY_MS = 50;

async function residentMiB(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kib = /^VmRSS:\s+(\d+) kB/m.exec(status);
  if (!kib) throw new Error(`no VmRSS for process ${pid}`);
  return Math.round(Number(kib[1]) / 1024);
}

/**
 * `work`'s value, and when `pid` is given, that process's resident memory before it and
 * the most seen while it ran.
 */
export async function peakResident<T>(
  pid: number | undefined,
  work: () => Promise<T>,
): Promise<[T, { beforeMiB: number; peakMiB: number } | undefined]> {
  if (pid === undefined) return [await work(), undefined];
  const beforeMiB = await residentMiB(pid);
  let peakMiB = beforeMiB;
  let running = true;
  const sampler = (async () => {
    while (running) {
      peakMiB = Math.max(peakMiB, await residentMiB(pid));
      await new Promise((resolve) => setTimeout(resolve, EVERY_MS));
    }
  })();
  try {
    return [await work(), { beforeMiB, peakMiB }];
  } finally {
    running = false;
    await sampler;
  }
}
