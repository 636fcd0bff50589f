/**
 * The graph file of bench/largeGraph.ts, written to disk as a stream (a million nodes
 * make a file larger than one string may hold): `nodes` nodes in three levels, the same
 * TOP_LEVEL boundaries at the top at every size, a boundary per 1,000 nodes under those,
 * and behaviors `step0`, `step1`, ... with an input and an output port (typed int) under
 * the second level; in each second-level boundary, a wire from each behavior's output to
 * the next one's input, and from its last behavior's output to the first input of the
 * next boundary's (one input unfed in the whole graph). So the top level, a second-level boundary's subtree (about 1,000
 * behaviors) and a behavior's neighborhood are the same size whatever the graph's, and
 * a read of them at 1M nodes compares with the same read at 1k. Positions are set. Also
 * the size of a directory on disk (the store's growth).
 */
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { once } from 'node:events';
import { generatedBehavior } from '../services/graphfile';

/** Boundaries at the top level, at every size. */
const TOP_LEVEL = 10;

export interface LargeGraphShape {
  nodes: number;
  tops: number;
  mids: number;
  behaviors: number;
  boundaries: number;
  ports: number;
  wires: number;
}

/** The counts of a generated file of `nodes` nodes. */
export function largeGraphShape(nodes: number): LargeGraphShape {
  const tops = Math.min(TOP_LEVEL, nodes);
  const mids = Math.max(1, Math.round(nodes / 1_000));
  const behaviors = Math.max(0, nodes - tops - mids);
  const wires = Math.max(0, behaviors - 1);
  return {
    nodes: tops + mids + behaviors,
    tops,
    mids,
    behaviors,
    boundaries: tops + mids,
    ports: 2 * behaviors,
    wires,
  };
}

/** The name of the generated file's last behavior: no other name holds it. */
export const lastBehaviorName = (shape: LargeGraphShape) => `step${shape.behaviors - 1}`;

export async function writeLargeGraphFile(
  path: string,
  nodes: number,
  projectName: string,
): Promise<LargeGraphShape> {
  const out = createWriteStream(path, { encoding: 'utf8' });
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  const shape = largeGraphShape(nodes);
  const { tops, mids, behaviors } = shape;
  const topIds = Array.from({ length: tops }, () => randomUUID());
  const midIds = Array.from({ length: mids }, () => randomUUID());
  /** Each second-level boundary's last behavior's output port, for the next wire. */
  const lastOutput = new Map<string, string>();
  /** Each second-level boundary's first behavior's input port, in the boundaries' order. */
  const firstInputs: string[] = [];
  const wires: { id: string; source_handle: string; target_handle: string }[] = [];
  let first = true;
  const node = async (value: unknown) => {
    await write(`${first ? '' : ','}\n${JSON.stringify(value)}`);
    first = false;
  };
  await write(`{"schema_version": 6, "project_name": ${JSON.stringify(projectName)}, "nodes": [`);
  for (const [i, id] of topIds.entries())
    await node({
      id,
      kind: 'boundary',
      parent_id: null,
      data: { name: `top${i}` },
      position: { x: i * 400, y: 0 },
    });
  for (const [i, id] of midIds.entries())
    await node({
      id,
      kind: 'boundary',
      parent_id: topIds[i % tops],
      data: { name: `mid${i}` },
      position: { x: i * 40, y: 200 },
    });
  for (let i = 0; i < behaviors; i += 1) {
    const parent = midIds[i % mids];
    const { entry, input, output } = generatedBehavior(`step${i}`, parent, {
      x: (i % 100) * 10,
      y: 400 + Math.floor(i / 100),
    });
    await node(entry);
    const previous = lastOutput.get(parent);
    if (previous) wires.push({ id: randomUUID(), source_handle: previous, target_handle: input });
    else firstInputs.push(input);
    lastOutput.set(parent, output);
  }
  // each boundary's chain fed by the one before's last output: one unsatisfied input in
  // the whole graph, whatever its size, so the findings listed are the same at 1k and 1M
  for (let m = 1; m < firstInputs.length; m += 1)
    wires.push({
      id: randomUUID(),
      source_handle: lastOutput.get(midIds[m - 1])!,
      target_handle: firstInputs[m],
    });
  await write('\n], "edges": [');
  for (const [i, wire] of wires.entries())
    await write(`${i === 0 ? '' : ','}\n${JSON.stringify(wire)}`);
  await write('\n]}\n');
  out.end();
  await once(out, 'finish');
  if (wires.length !== shape.wires) throw new Error('largeGraphShape counts wires wrongly');
  return shape;
}

/** Bytes of the files under `dir`, at any depth. */
export async function diskBytes(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += await diskBytes(path);
    else if (entry.isFile()) total += (await stat(path)).size;
  }
  return total;
}
