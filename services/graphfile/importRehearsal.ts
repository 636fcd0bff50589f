/**
 * A staged import written whole and removed, as a process starts: the import's part of
 * the plan warm-up (services/graph planWarmup.ts) that commits.
 *
 * Planning is not all a first import waits for. A Neo4j just started runs the code that
 * commits records (index inserts, the records' commands, the transaction log) slowly
 * until its JVM has compiled it, and a transaction rolled back, as the plan warm-up's
 * rehearsal of an import's writes is, never reaches that code. Measured on a 2-core
 * machine, fresh Neo4j each time: a 100k-node import spent 44 and 46 s of Neo4j's CPU
 * and wrote in 26.7 and 27.8 s as the first import; 38 and 39 s and 23.9 and 24.4 s
 * after a 1000-node import had committed first (Neo4j compiling about 6000 methods
 * during the first against about 4400).
 *
 * So a process that serves imports writes a small generated graph file through the
 * import's own path, read, planned and staged (checked while its records are written)
 * on a line of its own that no project names, and then removes it as a refused
 * import's stage is removed. A crash
 * between the two leaves a stage like any import's, which the worker's sweep removes
 * once its lease runs out. Nothing else reads or writes that line.
 */
import { randomUUID } from 'node:crypto';
import type { ServiceContext } from '../../shared/http/serviceContext';
import type { ContentCounts } from '../purge';
import { readGraphFile } from './graphFileReader';
import { importRecordsFirst, planImport } from './importPlan';
import { abortStage, stageContent } from './importStaging';

/** Nodes of the rehearsal's graph: about 6000 records, written and removed in about 1.5 s. */
const REHEARSAL_NODES = 1000;

/** Boundaries at the top of the rehearsal's graph; its behaviors are spread under them. */
const BOUNDARIES = 10;

/** A generated graph file's behavior: its node entry and the ids of its two ports. */
export interface GeneratedBehavior {
  entry: Record<string, unknown>;
  input: string;
  output: string;
}

/**
 * A behavior node of a generated graph file (this rehearsal's, the benchmarks' large
 * graphs): under `parentId`, with an input and an output port of type int.
 */
export function generatedBehavior(
  name: string,
  parentId: string,
  position: { x: number; y: number },
): GeneratedBehavior {
  const input = randomUUID();
  const output = randomUUID();
  const entry = {
    id: randomUUID(),
    kind: 'behavior',
    parent_id: parentId,
    data: {
      name,
      inputs: [{ id: input, name: 'in', type: 'int' }],
      outputs: [{ id: output, name: 'out', type: 'int' }],
    },
    position,
  };
  return { entry, input, output };
}

/**
 * A graph file of `nodes` nodes shaped as users' are: boundaries, behaviors under them
 * with an input and an output port each, wires chaining each boundary's behaviors.
 */
export function rehearsalFile(nodes: number): Record<string, unknown> {
  const boundaries = Array.from({ length: BOUNDARIES }, (_, i) => ({
    id: randomUUID(),
    kind: 'boundary',
    parent_id: null,
    data: { name: `rehearsal ${i}` },
    position: { x: i * 400, y: 0 },
  }));
  const behaviors = [];
  const edges = [];
  const lastOutput = new Map<string, string>();
  for (let i = 0; i < nodes - BOUNDARIES; i++) {
    const parent = boundaries[i % BOUNDARIES].id;
    const { entry, input, output } = generatedBehavior(`step ${i}`, parent, {
      x: (i % 100) * 10,
      y: 200 + Math.floor(i / 100),
    });
    behaviors.push(entry);
    const previous = lastOutput.get(parent);
    if (previous) edges.push({ id: randomUUID(), source_handle: previous, target_handle: input });
    lastOutput.set(parent, output);
  }
  return {
    schema_version: 6,
    project_name: 'import rehearsal',
    nodes: [...boundaries, ...behaviors],
    edges,
  };
}

/** What a rehearsal wrote on its line and removed from it. */
export interface Rehearsal {
  line: string;
  removed: ContentCounts;
}

/**
 * Writes a generated graph of `nodes` nodes as a staged import does, on a line no project
 * names, then removes it. Answers the line and what was removed from it: the records
 * the staging committed.
 */
export async function rehearseStagedImport(
  ctx: ServiceContext,
  nodes = REHEARSAL_NODES,
): Promise<Rehearsal> {
  const line = randomUUID();
  const plan = planImport(readGraphFile(rehearsalFile(nodes)));
  // as an import stages it: its records written while it is checked
  const content = importRecordsFirst(plan, line, ctx.config.limits.maxNestingDepth);
  try {
    await stageContent(ctx, line, content, {
      chunk: ctx.config.staging.chunk,
      writers: ctx.config.staging.writers,
      progress: () => {},
    });
  } catch (error) {
    // what it committed before it failed is removed (left to the sweep when this fails too)
    await abortStage(ctx, line);
    throw error;
  }
  return { line, removed: await abortStage(ctx, line) };
}
