/** Builds a synthetic graph of a given size on a branch (see fixtureQueries.ts). */
import { randomUUID } from 'node:crypto';
import type { Executor } from '../shared/neo4j/executor';
import { createBoundaries, createEdges, createNodes } from './fixtureQueries';

export interface Fixture {
  boundaries: string[];
  /** Per node: its id, input port and output port. */
  nodes: { id: string; input: string; output: string; parent: string }[];
}

const CHUNK = 5000;

export async function loadFixture(
  executor: Executor,
  branchId: string,
  size: number,
): Promise<Fixture> {
  const boundaryCount = Math.max(1, Math.floor(size / 10));
  const boundaries = Array.from({ length: boundaryCount }, () => randomUUID());
  const nodes = Array.from({ length: size - boundaryCount }, (_, i) => ({
    id: randomUUID(),
    input: randomUUID(),
    output: randomUUID(),
    parent: boundaries[i % boundaryCount],
    name: `n${i}`,
  }));
  for (let i = 0; i < boundaries.length; i += CHUNK) {
    const rows = boundaries.slice(i, i + CHUNK).map((id, j) => ({ id, name: `b${i + j}` }));
    await executor.write(createBoundaries, { branchId, rows });
  }
  for (let i = 0; i < nodes.length; i += CHUNK) {
    await executor.write(createNodes, { branchId, rows: nodes.slice(i, i + CHUNK) });
  }
  const edges = nodes
    .slice(1)
    .map((n, i) => ({ id: randomUUID(), source: nodes[i].output, target: n.input }));
  for (let i = 0; i < edges.length; i += CHUNK) {
    await executor.write(createEdges, { branchId, rows: edges.slice(i, i + CHUNK) });
  }
  return { boundaries, nodes };
}

export function pick<T>(items: T[]): T {
  return items[Math.floor(Math.random() * items.length)];
}
