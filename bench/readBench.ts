/**
 * Scoped-read benchmark: subtree (depth 3), neighborhood and boundary view at several
 * graph sizes on a main with a history (graphFixture.ts giveMainHistory), each read at
 * main's current version and pinned to the version `PINNED_AGE` batches older
 * (`?version=`). Through HTTP, beside bare Cypher for the same rows: the one statement
 * the API runs for each read (its access row included), run straight through the
 * executor, so the ratio is what HTTP, the gateway and presentation add. A minimal
 * hand-written query (fewer rows, see readQueries.ts) is timed beside it for reference.
 */
import { mainView } from '../services/graph';
import {
  readBoundaryOf,
  readNeighborhoodOf,
  subtreeToDepth,
} from '../services/graph/store/scopedReadQueries';
import { readAt } from '../services/graph/store/scopedReadFragments';
import type { Executor } from '../shared/neo4j/executor';
import type { NamedQuery } from '../shared/neo4j/namedQuery';
import { BenchClient } from './benchClient';
import { giveMainHistory, loadFixture, pick } from './graphFixture';
import { bareBoundary, bareNeighborhood, bareSubtree } from './readQueries';
import { measureInterleaved, Sample } from './stats';

/** How many main versions older than the head the pinned reads read. */
export const PINNED_AGE = 100;
/** Main versions the fixture publishes before the reads (each changes ten nodes). */
const HISTORY = PINNED_AGE + 10;

export const SCOPED_READS = ['subtree depth 3', 'neighborhood', 'boundary view'] as const;

/** `path` with `version=` added to its query when a version is pinned. */
function atVersion(path: string, version: number | null): string {
  if (version === null) return path;
  return `${path}${path.includes('?') ? '&' : '?'}version=${version}`;
}

/** A main of one size with its history, loaded before any read is timed. */
interface LoadedMain {
  size: number;
  projectId: string;
  mainId: string;
  fixture: Awaited<ReturnType<typeof loadFixture>>;
  head: number;
}

/** One scoped read as the API, its statement and the minimal query make it, on `main`. */
interface ScopedRead {
  choose: () => string;
  path: (id: string) => string;
  statement: NamedQuery;
  params: (id: string) => Record<string, unknown>;
  minimal: NamedQuery;
}

// the statements walk a fixed number of levels in one round trip (deeper nesting is
// finished by the commands), so they do not depend on the nesting limit
function scopedRead(op: (typeof SCOPED_READS)[number], main: LoadedMain): ScopedRead {
  const { projectId, mainId, fixture } = main;
  switch (op) {
    case 'subtree depth 3':
      return {
        choose: () => pick(fixture.boundaries),
        path: (id) => `/v1/branches/${mainId}/subtree/${id}?depth=3`,
        statement: subtreeToDepth(3),
        params: (id) => ({ branchId: mainId, nodeId: id }),
        minimal: bareSubtree,
      };
    case 'neighborhood':
      return {
        choose: () => pick(fixture.nodes).id,
        path: (id) => `/v1/branches/${mainId}/node/${id}`,
        statement: readNeighborhoodOf,
        params: (id) => ({ branchId: mainId, nodeId: id }),
        minimal: bareNeighborhood,
      };
    case 'boundary view':
      return {
        choose: () => pick(fixture.boundaries),
        path: (id) => `/v1/graph/${projectId}/boundary/${id}`,
        statement: readBoundaryOf,
        params: (id) => ({ projectId, nodeId: id }),
        minimal: bareBoundary,
      };
  }
}

/**
 * Every size's main is loaded first; then each read is timed on every size run by run in
 * turn (the API, its statement and the minimal query of each size), so that the ratios
 * between sizes compare the same moments of a machine whose speed drifts, not fixtures
 * timed minutes apart.
 */
export async function runReadBench(options: {
  client: BenchClient;
  executor: Executor;
  sizes: number[];
  /** The bench key's user: the API statements check its access as the API does. */
  userId: string;
}): Promise<Sample[]> {
  const { client, executor, sizes, userId } = options;
  const mains: LoadedMain[] = [];
  for (const size of sizes) {
    process.stderr.write(`reads @ ${size} nodes: loading fixture and main's history ...\n`);
    const { projectId, mainId } = await client.createProject();
    const fixture = await loadFixture(executor, mainId, size);
    const head = await giveMainHistory(executor, mainId, fixture, HISTORY);
    mains.push({ size, projectId, mainId, fixture, head });
  }
  const runs = 60;
  // JIT-warm both sides (the JVM and Node) before timing (see JIT_WARMUP_BATCHES in
  // writeBench.ts): a hundred runs of each first, forty of each read after
  const samples = await measureInterleaved(
    mains.map((main) => ({
      label: 'fixed cost: GET /v1/projects (API)',
      size: main.size,
      step: () => client.call('GET', '/v1/projects?limit=1').then(() => undefined),
    })),
    sizes[0],
    runs,
    100,
  );
  for (const op of SCOPED_READS) {
    for (const [at, pinned] of [
      ['', false],
      [' pinned', true],
    ] as const) {
      // each run reads one target per size, chosen before the run, every way; the API,
      // its statement and the minimal query take turns on the same target, so that their
      // ratios compare the same moments (and the same neighborhood's size)
      const reads = mains.map((main) => ({ main, read: scopedRead(op, main), target: '' }));
      const sides = reads.flatMap((each) => {
        const { main, read } = each;
        const version = pinned ? main.head - PINNED_AGE : null;
        const target = () => each.target;
        return [
          {
            label: `${op}${at} (API)`,
            size: main.size,
            step: () => client.call('GET', atVersion(read.path(target()), version)),
          },
          {
            label: `${op}${at} (bare Cypher)`,
            size: main.size,
            step: () =>
              executor
                .read(read.statement, {
                  ...read.params(target()),
                  userId,
                  at: readAt(version),
                })
                .then(() => undefined),
          },
          {
            label: `${op}${at} (minimal Cypher)`,
            size: main.size,
            step: () =>
              executor
                .read(read.minimal, {
                  nodeId: target(),
                  view: mainView(main.mainId, version ?? main.head),
                })
                .then(() => undefined),
          },
        ];
      });
      const choose = () => {
        for (const each of reads) each.target = each.read.choose();
      };
      samples.push(...(await measureInterleaved(sides, sizes[0], runs, 40, choose)));
    }
  }
  return samples;
}
