/**
 * Scoped-read benchmark: subtree (depth 3), neighborhood and boundary view at several
 * graph sizes, through HTTP, beside bare Cypher for the same rows: the one statement
 * the API runs for each read (its access row included), run straight through the
 * executor, so the ratio is what HTTP, the gateway and presentation add. A minimal
 * hand-written query (fewer rows, see readQueries.ts) is timed beside it for reference.
 */
import type { Executor } from '../shared/neo4j/executor';
import { BenchClient } from './benchClient';
import { loadFixture, pick } from './graphFixture';
import {
  readBoundaryOf,
  readNeighborhoodOf,
  subtreeToDepth,
} from '../services/graph/store/scopedReadQueries';
import { bareBoundary, bareNeighborhood, bareSubtree } from './readQueries';
import { measure, Sample } from './stats';

export async function runReadBench(options: {
  client: BenchClient;
  executor: Executor;
  sizes: number[];
  /** The bench key's user: the API statements check its access as the API does. */
  userId: string;
}): Promise<Sample[]> {
  const { client, executor, sizes, userId } = options;
  const samples: Sample[] = [];
  for (const size of sizes) {
    process.stderr.write(`reads @ ${size} nodes: loading fixture on main ...\n`);
    const project = await client.createProject();
    const fixture = await loadFixture(executor, project.mainId, size);
    const branchId = project.mainId;
    const runs = 30;
    // JIT-warm both sides (the JVM and Node) before timing: a few hundred runs of each
    // query before the first size (see JIT_WARMUP_BATCHES in writeBench.ts), ten after
    const warmup = size === sizes[0] ? 300 : 10;
    samples.push(
      await measure(
        'fixed cost: GET /v1/projects (API)',
        size,
        runs,
        async () => {
          await client.call('GET', '/v1/projects?limit=1');
        },
        warmup,
      ),
    );
    samples.push(
      await measure(
        'subtree depth 3 (API)',
        size,
        runs,
        async () => {
          await client.call(
            'GET',
            `/v1/branches/${branchId}/subtree/${pick(fixture.boundaries)}?depth=3`,
          );
        },
        warmup,
      ),
    );
    samples.push(
      await measure(
        'subtree depth 3 (minimal Cypher)',
        size,
        runs,
        async () => {
          await executor.read(bareSubtree, { branchId, nodeId: pick(fixture.boundaries) });
        },
        warmup,
      ),
    );
    samples.push(
      await measure(
        'subtree depth 3 (bare Cypher)',
        size,
        runs,
        async () => {
          const nodeId = pick(fixture.boundaries);
          await executor.read(subtreeToDepth(3), { branchId, nodeId, userId });
        },
        warmup,
      ),
    );
    samples.push(
      await measure(
        'neighborhood (API)',
        size,
        runs,
        async () => {
          await client.call('GET', `/v1/branches/${branchId}/node/${pick(fixture.nodes).id}`);
        },
        warmup,
      ),
    );
    samples.push(
      await measure(
        'neighborhood (minimal Cypher)',
        size,
        runs,
        async () => {
          await executor.read(bareNeighborhood, { branchId, nodeId: pick(fixture.nodes).id });
        },
        warmup,
      ),
    );
    samples.push(
      await measure(
        'neighborhood (bare Cypher)',
        size,
        runs,
        async () => {
          const nodeId = pick(fixture.nodes).id;
          await executor.read(readNeighborhoodOf, { branchId, nodeId, userId });
        },
        warmup,
      ),
    );
    samples.push(
      await measure(
        'boundary view (API)',
        size,
        runs,
        async () => {
          await client.call(
            'GET',
            `/v1/graph/${project.projectId}/boundary/${pick(fixture.boundaries)}`,
          );
        },
        warmup,
      ),
    );
    samples.push(
      await measure(
        'boundary view (minimal Cypher)',
        size,
        runs,
        async () => {
          await executor.read(bareBoundary, { branchId, nodeId: pick(fixture.boundaries) });
        },
        warmup,
      ),
    );
    samples.push(
      await measure(
        'boundary view (bare Cypher)',
        size,
        runs,
        async () => {
          const nodeId = pick(fixture.boundaries);
          await executor.read(readBoundaryOf, { projectId: project.projectId, nodeId, userId });
        },
        warmup,
      ),
    );
  }
  return samples;
}
