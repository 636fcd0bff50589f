/**
 * The tables and ratios `make bench` prints (bench/run.ts), every ratio between p50s
 * measured in the same run: API against bare Cypher at each size, each size against
 * the smallest, pinned reads against current ones, and the stored records after the
 * forks against main's.
 */
import type { StorageFigure } from './historyBench';
import { FORKS } from './historyBench';
import { BATCHES } from './mergeBench';
import { PINNED_AGE, SCOPED_READS } from './readBench';
import { FLAT_SEARCHES, SEARCHES } from './searchBench';
import { printTable, ratio, Sample, verdict } from './stats';

/** The sample of `label` at `size`. */
const finder = (samples: Sample[]) => (label: string, size: number) =>
  samples.find((s) => s.label === label && s.size === size);

export function reportWrites(samples: Sample[], sizes: number[]): void {
  printTable('Fork, graph writes, validate and full reads', samples);
  const find = finder(samples);
  const small = Math.min(...sizes);
  console.log('\nRatios (p50):');
  for (const size of sizes) {
    for (const count of [10, 100]) {
      const api = `${count}-delta batch (API)`;
      const bare = find(`${count}-delta batch (bare Cypher)`, size);
      const handler = find(`${count}-delta batch (handler, no HTTP)`, size);
      const own = find(`${count}-delta batch (its own statements)`, size);
      console.log(
        `  ${count}-delta batch @ ${size}: API/its own statements ${ratio(find(api, size), own)} (what the service adds to the statements it runs), API/bare ${ratio(find(api, size), bare)} (against a blind write of the same records), vs @ ${small}: ${ratio(find(api, size), find(api, small))}; API/handler ${ratio(find(api, size), handler)} (the request around the batch), handler/bare ${ratio(handler, bare)} (the batch's checks and findings)`,
      );
    }
    console.log(
      `  full-graph read @ ${size}: API/bare ${ratio(find('full-graph read (API)', size), find('full-graph read (bare Cypher)', size))}`,
    );
  }
}

export function reportReads(samples: Sample[], sizes: number[]): void {
  printTable(`Scoped reads, at main's head and pinned ${PINNED_AGE} versions back`, samples);
  const find = finder(samples);
  const small = Math.min(...sizes);
  console.log('\nRatios (p50):');
  for (const size of sizes)
    for (const op of SCOPED_READS)
      for (const at of ['', ' pinned']) {
        const api = `${op}${at} (API)`;
        console.log(
          `  ${op}${at} @ ${size}: API/bare ${ratio(find(api, size), find(`${op}${at} (bare Cypher)`, size))}, vs @ ${small}: ${ratio(find(api, size), find(api, small))}`,
        );
      }
}

export function reportLayout(samples: Sample[], sizes: number[]): void {
  printTable("Layout: subtree depth 3 with ports, at main's head, straight Cypher", samples);
  const find = finder(samples);
  console.log('\nRatios (p50):');
  for (const size of sizes)
    console.log(
      `  versioned relationships / property joins @ ${size}: ${ratio(find('subtree depth 3: versioned relationships', size), find('subtree depth 3: property joins', size))}`,
    );
}

/** Name search at each size, and its target: at the largest size within 1.3x of the smallest. */
export function reportSearch(samples: Sample[], sizes: number[]): void {
  printTable('Name search (searchNodes, limit 20), through the API', samples);
  const find = finder(samples);
  const [small, large] = [Math.min(...sizes), Math.max(...sizes)];
  console.log(
    `\nName search against its target: @ ${large} within 1.3x of @ ${small} (p50 ratios)`,
  );
  for (const label of FLAT_SEARCHES) {
    const [a, b] = [find(label, large), find(label, small)];
    if (!a || !b) continue;
    console.log(`  ${label}: ${ratio(a, b)} (target <= 1.3x: ${verdict(a.p50 <= 1.3 * b.p50)})`);
  }
  const [a, b] = [find(SEARCHES.substring, large), find(SEARCHES.substring, small)];
  if (a && b)
    console.log(`  ${SEARCHES.substring}: ${ratio(a, b)} (reported: its cost follows the matches)`);
}

export function reportStorage(storage: StorageFigure[]): void {
  if (storage.length === 0) return;
  console.log(
    `\nStored node + port + wire records, main alone and after ${FORKS} forks with one 10-delta batch each`,
  );
  console.log(
    '| main nodes | main records | after the forks | the batches wrote | after / main | after / (main + batches) |',
  );
  console.log('|---|---|---|---|---|---|');
  for (const s of storage)
    console.log(
      `| ${s.size} | ${s.main} | ${s.total} | ${s.changes} | ${(s.total / s.main).toFixed(4)}x | ${(s.total / (s.main + s.changes)).toFixed(4)}x |`,
    );
}

/** One line per target of the versioned store: the measured ratio beside its bound. */
export function reportTargets(samples: Sample[], storage: StorageFigure[], sizes: number[]): void {
  if (samples.length === 0 && storage.length === 0) return;
  const find = finder(samples);
  const small = Math.min(...sizes);
  const large = Math.max(...sizes);
  const lines: string[] = [];
  const flat = (label: string) => {
    const [a, b] = [find(label, large), find(label, small)];
    if (a && b)
      lines.push(
        `  ${label}: @ ${large} / @ ${small} = ${ratio(a, b)} (target <= 1.3x: ${verdict(a.p50 <= 1.3 * b.p50)})`,
      );
  };
  flat('fork');
  flat(`merge fast-forward (${BATCHES} batches)`);
  flat(`merge replay (${BATCHES} batches)`);
  flat('validate 10-delta batch (API)');
  for (const op of SCOPED_READS) flat(`${op} (API)`);
  for (const op of SCOPED_READS) flat(`${op} pinned (API)`);
  const revert = 'revert of a 10-delta batch (API)';
  if (find(revert, large) && find(revert, small))
    lines.push(
      `  ${revert}: @ ${large} / @ ${small} = ${ratio(find(revert, large), find(revert, small))} (reported)`,
    );
  for (const size of sizes) {
    for (const count of [10, 100]) {
      const api = find(`${count}-delta batch (API)`, size);
      const own = find(`${count}-delta batch (its own statements)`, size);
      if (api && own)
        lines.push(
          `  ${count}-delta batch API / its own statements @ ${size} = ${ratio(api, own)} (target <= 2x: ${verdict(api.p50 <= 2 * own.p50)})`,
        );
    }
    for (const op of SCOPED_READS) {
      const [pinned, head] = [find(`${op} pinned (API)`, size), find(`${op} (API)`, size)];
      if (pinned && head)
        lines.push(
          `  ${op} pinned / current @ ${size} = ${ratio(pinned, head)} (target <= 1.5x: ${verdict(pinned.p50 <= 1.5 * head.p50)})`,
        );
    }
    const [api, bare] = [
      find('full-graph read (API)', size),
      find('full-graph read (bare Cypher)', size),
    ];
    if (api && bare)
      lines.push(
        `  full-graph read API / bare Cypher @ ${size} = ${ratio(api, bare)} (target <= 1.5x: ${verdict(api.p50 <= 1.5 * bare.p50)})`,
      );
  }
  for (const s of storage) {
    const grown = s.total / (s.main + s.changes);
    lines.push(
      `  records after ${FORKS} forks / (main + their batches) @ ${s.size} = ${grown.toFixed(4)}x (target <= 1.05x: ${verdict(grown <= 1.05)})`,
    );
  }
  console.log('\nThe versioned store against its targets (p50 ratios, this run):');
  for (const line of lines) console.log(line);
}
