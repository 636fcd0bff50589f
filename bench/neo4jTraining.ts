/**
 * The workload Neo4j's AOT cache is recorded from (scripts/build-neo4j.sh, on Java 25): the
 * service's own import of a generated graph file (nested boundaries, behaviors with two
 * ports, wires; bench/largeGraphFile.ts) and its export, through graphctl as an operator
 * runs them. The cache keeps the method profiles of this run, so a Neo4j started with it
 * compiles the store's write and read paths at once rather than during its first large
 * write; those paths are what this workload runs, by the statements the service sends.
 *
 *   scripts/with-stack.sh <name> <neo4j_port> <redis_port> -- npx tsx bench/neo4jTraining.ts [--nodes 20000]
 *
 * 20 000 nodes: enough calls of every method on the import's path for the JIT to profile
 * them (a larger training file shortened a later 100k import no further), in about 30 s.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { randomUUID } from 'node:crypto';
import { graphctlExport, graphctlImport } from './graphctlProcess';
import { writeLargeGraphFile } from './largeGraphFile';

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { nodes: { type: 'string', default: '20000' } } });
  const nodes = Number(values.nodes);
  if (!Number.isInteger(nodes) || nodes < 1) throw new Error(`--nodes must be a positive integer`);
  const dir = await mkdtemp(join(tmpdir(), 'neo4j-training-'));
  try {
    const started = Date.now();
    const file = join(dir, 'training.json');
    const run = randomUUID().slice(0, 8);
    await writeLargeGraphFile(file, nodes, `training-${run}`);
    const imported = await graphctlImport(file, `training-${run}`);
    const exported = await graphctlExport(imported.main_branch.id, join(dir, 'exported.json'));
    console.log(
      `training: imported and exported ${exported.nodes} nodes in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
