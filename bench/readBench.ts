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
import type { Executor } from '../shared/neo4j/executor';
import type { NamedQuery } from '../shared/neo4j/namedQuery';
import { BenchClient } from './benchClient';
import { giveMainHistory, loadFixture, pick } from './graphFixture';
import { bareBoundary, bareNeighborhood, bareSubtree } from './readQueries';
import { measure, measureInterleaved, Sample } from './stats';

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

export async function runReadBench(options: {
  client: BenchClient;
  executor: Executor;
  sizes: number[];
  /** The bench key's user: the API statements check its access as the API does. */
  userId: string;
}): Promise<Sample[]> {
  const { client, executor, sizes, userId } = options;
  // the statements walk a fixed number of levels in one round trip (deeper nesting
  // is finished by the commands), so they do not depend on the nesting limit
  const queries = {
    subtree: subtreeToDepth,
    neighborhood: readNeighborhoodOf,
    boundary: readBoundaryOf,
  };
  const samples: Sample[] = [];
  for (const size of sizes) {
    process.stderr.write(`reads @ ${size} nodes: loading fixture and main's history ...\n`);
    const { projectId, mainId } = await client.createProject();
    const fixture = await loadFixture(executor, mainId, size);
    const head = await giveMainHistory(executor, mainId, fixture, HISTORY);
    const pinned = head - PINNED_AGE;
    const runs = 60;
    // JIT-warm both sides (the JVM and Node) before timing: a hundred runs of each
    // query before the first size (see JIT_WARMUP_BATCHES in writeBench.ts), ten after
    const warmup = size === sizes[0] ? 100 : 10;
    samples.push(
      await measure(
        'fixed cost: GET /v1/projects (API)',
        size,
        runs,
        () => client.call('GET', '/v1/projects?limit=1').then(() => undefined),
        warmup,
      ),
    );
    // each run reads one target, chosen before the run, every way
    let target = '';
    const reads: {
      op: (typeof SCOPED_READS)[number];
      choose: () => string;
      path: (id: string) => string;
      statement: NamedQuery;
      params: (id: string) => Record<string, unknown>;
      minimal: NamedQuery;
    }[] = [
      {
        op: 'subtree depth 3',
        choose: () => pick(fixture.boundaries),
        path: (id) => `/v1/branches/${mainId}/subtree/${id}?depth=3`,
        statement: queries.subtree(3),
        params: (id) => ({ branchId: mainId, nodeId: id }),
        minimal: bareSubtree,
      },
      {
        op: 'neighborhood',
        choose: () => pick(fixture.nodes).id,
        path: (id) => `/v1/branches/${mainId}/node/${id}`,
        statement: queries.neighborhood,
        params: (id) => ({ branchId: mainId, nodeId: id }),
        minimal: bareNeighborhood,
      },
      {
        op: 'boundary view',
        choose: () => pick(fixture.boundaries),
        path: (id) => `/v1/graph/${projectId}/boundary/${id}`,
        statement: queries.boundary,
        params: (id) => ({ projectId, nodeId: id }),
        minimal: bareBoundary,
      },
    ];
    for (const read of reads) {
      for (const [at, version] of [
        ['', null],
        [' pinned', pinned],
      ] as const) {
        // the API, its statement and the minimal query take turns run by run, on the same
        // target, so that their ratios compare the same moments of a machine whose speed
        // drifts (and the same neighborhood's size)
        samples.push(
          ...(await measureInterleaved(
            [
              {
                label: `${read.op}${at} (API)`,
                step: () => client.call('GET', atVersion(read.path(target), version)),
              },
              {
                label: `${read.op}${at} (bare Cypher)`,
                step: () =>
                  executor
                    .read(read.statement, { ...read.params(target), userId, version })
                    .then(() => undefined),
              },
              {
                label: `${read.op}${at} (minimal Cypher)`,
                step: () =>
                  executor
                    .read(read.minimal, { nodeId: target, view: mainView(mainId, version ?? head) })
                    .then(() => undefined),
              },
            ],
            size,
            runs,
            warmup,
            () => {
              target = read.choose();
            },
          )),
        );
      }
    }
  }
  return samples;
}
