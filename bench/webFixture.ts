/**
 * A nested synthetic graph for the web viewer bench: `top` boundaries at the top
 * level (wired in a chain), each holding `middle` boundaries, each holding leaf
 * behaviors wired in a chain, every node with one input and one output port. The
 * top level is the same size whatever the total, so opening a graph at its top
 * level should cost the same at 1k and 100k nodes. Bulk-loaded with UNWIND onto main's
 * line at version 0, in the versioned store's model (fixtureQueries.ts).
 */
import { randomUUID } from 'node:crypto';
import type { Executor } from '../shared/neo4j/executor';
import { createEdges, createNodes } from './fixtureQueries';

interface Row {
  id: string;
  input: string;
  output: string;
  name: string;
  parent?: string | null;
  kind?: string;
  userKind?: string | null;
}

const CHUNK = 5000;

function row(name: string, extra: Partial<Row> = {}): Row {
  return { id: randomUUID(), input: randomUUID(), output: randomUUID(), name, ...extra };
}

function chain(rows: Row[]) {
  return rows
    .slice(1)
    .map((r, i) => ({ id: randomUUID(), source: rows[i].output, target: r.input }));
}

async function inChunks<T>(items: T[], write: (chunk: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < items.length; i += CHUNK) await write(items.slice(i, i + CHUNK));
}

/** What loadNestedFixture loaded: counts, and the boundaries and leaves below the top level. */
export interface NestedFixture {
  top: number;
  total: number;
  /** The boundaries of the second level (each holds leaves). */
  middles: string[];
  /** The leaf behaviors, each with its input and output port. */
  leaves: { id: string; input: string; output: string }[];
}

/**
 * Loads `size` nodes onto the line (main or a working branch) at version 0: `top`
 * top-level boundaries, about a tenth boundaries below them.
 */
export async function loadNestedFixture(
  executor: Executor,
  line: string,
  size: number,
  top = 10,
): Promise<NestedFixture> {
  const middleCount = Math.max(top, Math.round((size - top) / 11));
  const leafCount = size - top - middleCount;
  const tops = Array.from({ length: top }, (_, i) =>
    row(`area${i}`, { parent: null, kind: 'boundary', userKind: 'module' }),
  );
  const middles = Array.from({ length: middleCount }, (_, i) =>
    row(`module${i}`, { parent: tops[i % top].id, kind: 'boundary', userKind: 'module' }),
  );
  // leaf i sits in middle i % middleCount: leaves i - middleCount and i share a parent
  const leaves = Array.from({ length: leafCount }, (_, i) =>
    row(`step${i}`, { parent: middles[i % middleCount].id, kind: 'behavior', userKind: null }),
  );
  const leafWires = leaves.slice(middleCount).map((r, i) => ({
    id: randomUUID(),
    source: leaves[i].output,
    target: r.input,
  }));
  const run = (query: typeof createNodes) => (rows: unknown[]) =>
    executor.write(query, { line, rows });
  await inChunks(tops, run(createNodes));
  await inChunks(middles, run(createNodes));
  await inChunks(leaves, run(createNodes));
  await inChunks([...chain(tops), ...leafWires], run(createEdges));
  return {
    top,
    total: tops.length + middles.length + leaves.length,
    middles: middles.map((m) => m.id),
    leaves: leaves.map(({ id, input, output }) => ({ id, input, output })),
  };
}
