/**
 * Bulk batches (`--only bulk`): on a working branch of a main of each size, through the
 * API beside a plain UNWIND ... CREATE of the same records in the same run, taking turns
 * run by run (stats.ts measureInterleaved):
 *   - nodes: BULK add_node deltas (a batch's most: MAX_DELTAS_PER_BATCH), each a behavior
 *     with an input and an output port; the bare side (fixtureQueries.ts bareBatch) writes
 *     the same node and port records, the findings the API keeps (orphan_node, and
 *     unsatisfied_input of each input), the change record and its Touch records, under the branch's lock, and checks nothing;
 *   - wires: BULK add_edge deltas between ports already on the branch (main nodes'
 *     outputs to the inputs of nodes added, untimed, just before); the bare side writes
 *     the same wire records, closes the unsatisfied_input findings the wires clear (as
 *     the API does: the branch's own records, closed at the batch's version), and writes
 *     the change record and its Touch records.
 * Target: the API within BULK_TARGET of the bare side, at every size.
 */
import { randomUUID } from 'node:crypto';
import type { Executor } from '../shared/neo4j/executor';
import { findingRow, orphanNodeFinding, unsatisfiedInputFinding } from '../services/graph';
import { BenchClient } from './benchClient';
import { bareBatch } from './fixtureQueries';
import { Fixture, loadedProject, pick } from './graphFixture';
import { measureInterleaved, Sample, verdict } from './stats';
import { bareParams, storedRecords } from './writeBench';

export const BULK = 1000;
export const BULK_TARGET = 2;
/** Runs a side at each size: with 8, two runs of the same code on a 2-core machine gave
 * the 100k wire batch 1.70x and 2.08x; with 16, 1.92x and 1.69x. */
const RUNS = 16;

export const BULK_LABELS = {
  nodes: `${BULK} nodes with 2 ports`,
  wires: `${BULK} wires between existing ports`,
} as const;

/** A batch and the bare rows of the same records (bareBatch's parameters, less the branch). */
interface BulkBatch {
  deltas: unknown[];
  bare: { nodes: unknown[]; edges: unknown[]; findings: unknown[]; closed: string[] };
  /** The new nodes' input ports (free for a wire). */
  inputs: string[];
}

/** `count` new nodes with an input and an output port each. */
function nodesBatch(fixture: Fixture, count: number, branchId: string): BulkBatch {
  const batch: BulkBatch = {
    deltas: [],
    bare: { nodes: [], edges: [], findings: [], closed: [] },
    inputs: [],
  };
  for (let i = 0; i < count; i++) {
    const [id, input, output] = [randomUUID(), randomUUID(), randomUUID()];
    const name = `b${id.slice(0, 12)}`;
    const addNode = {
      type: 'add_node',
      node: {
        id,
        parent_id: pick(fixture.boundaries),
        data: {
          name,
          inputs: [{ id: input, name: 'in', type: 'int' }],
          outputs: [{ id: output, name: 'out', type: 'int' }],
        },
      },
    };
    batch.deltas.push(addNode);
    batch.inputs.push(input);
    const stored = storedRecords(addNode);
    batch.bare.nodes.push({
      props: { ...stored.node.props, branch_id: branchId, id },
      ports: stored.ports.map((port) => ({ ...port.props, branch_id: branchId, id: port.id })),
    });
    // the findings the API keeps for the node: an orphan, with an input nothing feeds
    for (const finding of [
      orphanNodeFinding({ id, name }),
      unsatisfiedInputFinding({ id: input, name: 'in' }),
    ]) {
      const { id: findingId, props } = findingRow(finding);
      batch.bare.findings.push({ id: findingId, props });
    }
  }
  return batch;
}

/** A wire from a main node's output to each of `inputs`. */
function wiresBatch(fixture: Fixture, inputs: string[], branchId: string): BulkBatch {
  const into: BulkBatch = {
    deltas: [],
    bare: { nodes: [], edges: [], findings: [], closed: [] },
    inputs: [],
  };
  for (const target of inputs) {
    const edge = { id: randomUUID(), source: pick(fixture.nodes).output, target };
    into.deltas.push({
      type: 'add_edge',
      edge: { id: edge.id, source_handle: edge.source, target_handle: edge.target },
    });
    into.bare.edges.push({
      branch_id: branchId,
      id: edge.id,
      source_handle: edge.source,
      target_handle: edge.target,
    });
    // the wire feeds its target: the input's unsatisfied_input finding closes
    into.bare.closed.push(findingRow(unsatisfiedInputFinding({ id: target, name: 'in' })).id);
  }
  return into;
}

export async function runBulkBench(options: {
  client: BenchClient;
  executor: Executor;
  sizes: number[];
}): Promise<Sample[]> {
  const { client, executor } = options;
  const samples: Sample[] = [];
  for (const size of options.sizes) {
    process.stderr.write(`bulk @ ${size} nodes: loading fixture on main ...\n`);
    const project = await loadedProject(client, executor, size);
    const { fixture } = project;
    const branchId = await client.fork(project.projectId);
    let version = 0;
    const bare = async (batch: BulkBatch) => {
      const params = bareParams(branchId, batch);
      const [row] = await executor.write<{ version: number }>(bareBatch, params);
      version = row.version;
    };
    const api = async (batch: BulkBatch) => {
      version = await client.applyDeltas(branchId, batch.deltas, version);
    };
    // the wires' targets: inputs of nodes added untimed just before each wires run
    let free: string[] = [];
    const addFree = async () => {
      const nodes = nodesBatch(fixture, BULK, branchId);
      await api(nodes);
      free = nodes.inputs;
    };
    samples.push(
      ...(await measureInterleaved(
        [
          {
            label: `${BULK_LABELS.nodes} (API)`,
            step: () => api(nodesBatch(fixture, BULK, branchId)),
          },
          {
            label: `${BULK_LABELS.nodes} (bare UNWIND CREATE)`,
            step: () => bare(nodesBatch(fixture, BULK, branchId)),
          },
          {
            label: `${BULK_LABELS.wires} (API)`,
            prepare: addFree,
            step: () => api(wiresBatch(fixture, free, branchId)),
          },
          {
            label: `${BULK_LABELS.wires} (bare UNWIND CREATE)`,
            prepare: addFree,
            step: () => bare(wiresBatch(fixture, free, branchId)),
          },
        ],
        size,
        RUNS,
        2,
      )),
    );
  }
  return samples;
}

/** Each bulk batch against its bare side, at each size, with its target. */
export function reportBulk(samples: Sample[], sizes: number[]): void {
  const find = (label: string, size: number) =>
    samples.find((s) => s.label === label && s.size === size);
  console.log(`\nBulk batches through the API against a plain UNWIND ... CREATE (p50 ratios)`);
  for (const size of sizes)
    for (const what of Object.values(BULK_LABELS)) {
      const [api, bare] = [find(`${what} (API)`, size), find(`${what} (bare UNWIND CREATE)`, size)];
      if (!api || !bare) continue;
      const ratio = api.p50 / bare.p50;
      console.log(
        `  ${what} @ ${size}: API ${api.p50.toFixed(1)} ms, bare ${bare.p50.toFixed(1)} ms, ${ratio.toFixed(2)}x (target <= ${BULK_TARGET}x: ${verdict(ratio <= BULK_TARGET)})`,
      );
    }
}
