/**
 * What the versioned store keeps, at several graph sizes:
 *   - revert: revertBranch of a 10-delta batch (through HTTP), the batch applied
 *     untimed just before, so each revert undoes the branch's newest batch;
 *   - storage: node, port and wire records stored after `FORKS` forks of main, each
 *     applying one 10-delta batch, against main's records alone. A fork writes no graph
 *     content, so the branches should add only what their batches wrote.
 */
import type { Executor } from '../shared/neo4j/executor';
import { BenchClient } from './benchClient';
import { countRecords } from './fixtureQueries';
import { loadedProject } from './graphFixture';
import { measureEach, Sample } from './stats';
import { batchDeltas } from './writeBench';

export const FORKS = 20;
const DELTAS = 10;

export interface StorageFigure {
  size: number;
  /** Records on main's line before the forks. */
  main: number;
  /** Records on main's line and every fork's line after the forks' batches. */
  total: number;
  /** Records the forks' batches create (a node, its port, a wire per delta pair). */
  changes: number;
}

export async function runHistoryBench(options: {
  client: BenchClient;
  executor: Executor;
  sizes: number[];
}): Promise<{ samples: Sample[]; storage: StorageFigure[] }> {
  const { client, executor } = options;
  const samples: Sample[] = [];
  const storage: StorageFigure[] = [];
  for (const size of options.sizes) {
    process.stderr.write(`history @ ${size} nodes: loading fixture on main ...\n`);
    const project = await loadedProject(client, executor, size);
    const { fixture } = project;

    const branchId = await client.fork(project.projectId);
    let version = 0;
    let batchVersion = 0;
    samples.push(
      await measureEach(
        `revert of a ${DELTAS}-delta batch (API)`,
        size,
        12,
        async () => {
          batchVersion = await client.applyDeltas(
            branchId,
            batchDeltas(fixture, DELTAS).deltas,
            version,
          );
        },
        async () => {
          version = await client.revert(branchId, batchVersion, batchVersion);
        },
      ),
    );

    const count = async (lines: string[]) => {
      const [row] = await executor.read<{ records: number }>(countRecords, { lines });
      return row.records;
    };
    const main = await count([project.mainId]);
    const lines = [project.mainId];
    for (let i = 0; i < FORKS; i++) {
      const fork = await client.fork(project.projectId);
      await client.applyDeltas(fork, batchDeltas(fixture, DELTAS).deltas, 0);
      lines.push(fork);
    }
    // each delta pair: add_node (the node and its one port) and add_edge (the wire)
    const changes = FORKS * (DELTAS / 2) * 3;
    storage.push({ size, main, total: await count(lines), changes });
    process.stderr.write(`  storage @ ${size}: ${JSON.stringify(storage.at(-1))}\n`);
  }
  return { samples, storage };
}
