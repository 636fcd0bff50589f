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
import { measure, Sample } from './stats';

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
    const runs = 30;
    // JIT-warm both sides (the JVM and Node) before timing: a hundred runs of each
    // query before the first size (see JIT_WARMUP_BATCHES in writeBench.ts), ten after
    const warmup = size === sizes[0] ? 100 : 10;
    const time = async (label: string, step: () => Promise<unknown>) =>
      samples.push(await measure(label, size, runs, () => step().then(() => undefined), warmup));
    await time('fixed cost: GET /v1/projects (API)', () =>
      client.call('GET', '/v1/projects?limit=1'),
    );
    const reads: {
      op: (typeof SCOPED_READS)[number];
      path: () => string;
      statement: NamedQuery;
      params: () => Record<string, unknown>;
      minimal: NamedQuery;
    }[] = [
      {
        op: 'subtree depth 3',
        path: () => `/v1/branches/${mainId}/subtree/${pick(fixture.boundaries)}?depth=3`,
        statement: queries.subtree(3),
        params: () => ({ branchId: mainId, nodeId: pick(fixture.boundaries) }),
        minimal: bareSubtree,
      },
      {
        op: 'neighborhood',
        path: () => `/v1/branches/${mainId}/node/${pick(fixture.nodes).id}`,
        statement: queries.neighborhood,
        params: () => ({ branchId: mainId, nodeId: pick(fixture.nodes).id }),
        minimal: bareNeighborhood,
      },
      {
        op: 'boundary view',
        path: () => `/v1/graph/${projectId}/boundary/${pick(fixture.boundaries)}`,
        statement: queries.boundary,
        params: () => ({ projectId, nodeId: pick(fixture.boundaries) }),
        minimal: bareBoundary,
      },
    ];
    for (const read of reads) {
      for (const [at, version] of [
        ['', null],
        [' pinned', pinned],
      ] as const) {
        await time(`${read.op}${at} (API)`, () =>
          client.call('GET', atVersion(read.path(), version)),
        );
        await time(`${read.op}${at} (bare Cypher)`, () =>
          executor.read(read.statement, { ...read.params(), userId, version }),
        );
        await time(`${read.op}${at} (minimal Cypher)`, () =>
          executor.read(read.minimal, {
            nodeId: read.params().nodeId,
            view: mainView(mainId, version ?? head),
          }),
        );
      }
    }
  }
  return samples;
}
