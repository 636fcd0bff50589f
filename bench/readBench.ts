/**
 * Scoped-read benchmark: subtree (depth 3), neighborhood and boundary view at several
 * graph sizes, through HTTP, beside bare Cypher for the same rows.
 */
import type { Executor } from '../shared/neo4j/executor';
import { BenchClient } from './benchClient';
import { loadFixture, pick } from './graphFixture';
import { bareBoundary, bareNeighborhood, bareSubtree } from './readQueries';
import { measure, Sample } from './stats';

export async function runReadBench(options: {
  client: BenchClient;
  executor: Executor;
  sizes: number[];
}): Promise<Sample[]> {
  const { client, executor, sizes } = options;
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
        'subtree depth 3 (bare Cypher)',
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
        'neighborhood (bare Cypher)',
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
        'boundary view (bare Cypher)',
        size,
        runs,
        async () => {
          await executor.read(bareBoundary, { branchId, nodeId: pick(fixture.boundaries) });
        },
        warmup,
      ),
    );
  }
  return samples;
}
