/**
 * Builds a synthetic graph of a given size on main's line (see fixtureQueries.ts),
 * and gives main a history: successive versions that each change a few nodes, written
 * through the store's own copy-on-write primitive (upsertStates at main's write view)
 * and published by moving main's version, as a merge does.
 */
import { randomUUID } from 'node:crypto';
import { keepFindingsOf, mainView, refreshFindings, upsertStates } from '../services/graph';
import type { Executor } from '../shared/neo4j/executor';
import type { BenchClient } from './benchClient';
import { createBoundaries, createEdges, createNodes, setLineVersion } from './fixtureQueries';

export interface Fixture {
  boundaries: string[];
  /** Per node: its id, input port and output port. */
  nodes: { id: string; input: string; output: string; parent: string }[];
}

const CHUNK = 5000;

/** Loads `size` nodes (a tenth of them boundaries) onto main's line `mainId` at version 0. */
export async function loadFixture(
  executor: Executor,
  mainId: string,
  size: number,
): Promise<Fixture> {
  const line = mainId;
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
    await executor.write(createBoundaries, { line, rows });
  }
  for (let i = 0; i < nodes.length; i += CHUNK) {
    await executor.write(createNodes, { line, rows: nodes.slice(i, i + CHUNK) });
  }
  const edges = nodes
    .slice(1)
    .map((n, i) => ({ id: randomUUID(), source: nodes[i].output, target: n.input }));
  for (let i = 0; i < edges.length; i += CHUNK) {
    await executor.write(createEdges, { line, rows: edges.slice(i, i + CHUNK) });
  }
  // the loaded content's kept findings, as the API's writes keep them (a bulk load
  // writes records directly)
  await keepFindingsOf(executor, mainView(line, 0), CHUNK);
  return { boundaries, nodes };
}

/**
 * Publishes main versions `from + 1` .. `from + versions`, each changing the
 * description of `perVersion` nodes (one of them a boundary), as that many small merges
 * would; returns main's new version.
 */
export async function giveMainHistory(
  executor: Executor,
  mainId: string,
  fixture: Fixture,
  versions: number,
  options: { from?: number; perVersion?: number } = {},
): Promise<number> {
  const { from = 0, perVersion = 10 } = options;
  for (let v = from + 1; v <= from + versions; v++) {
    const ids = [
      pick(fixture.boundaries),
      ...pickMany(fixture.nodes, perVersion - 1).map((n) => n.id),
    ];
    const rows = [...new Set(ids)].map((id) => ({ id, props: { description: `revision ${v}` } }));
    await executor.writeTx(async (tx) => {
      await upsertStates(tx, mainView(mainId, v), 'GNode', rows);
      await refreshFindings(tx, mainView(mainId, v));
      await tx.run(setLineVersion, { line: mainId, version: v });
    });
  }
  return from + versions;
}

export function pick<T>(items: T[]): T {
  return items[Math.floor(Math.random() * items.length)];
}

function pickMany<T>(items: T[], count: number): T[] {
  return Array.from({ length: count }, () => pick(items));
}

/** A new project whose main holds `size` nodes (loadFixture), and that fixture. */
export async function loadedProject(client: BenchClient, executor: Executor, size: number) {
  const { projectId, mainId } = await client.createProject();
  return { projectId, mainId, fixture: await loadFixture(executor, mainId, size) };
}
