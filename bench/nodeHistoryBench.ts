/**
 * A node's history (getNodeHistory) costs what the node's changes cost, not what the
 * trail holds: the same node, touched by the same changes, read on a branch whose trail
 * holds SHORT changes and on one whose trail holds LONG (the other changes touch other
 * nodes). The node is added through the API; the rest of each trail is written in bulk
 * as the trail records it (fixtureQueries.ts syntheticTrail: a Change record and its
 * Touch records per version), since ten thousand batches through the API would take
 * the run minutes. Timed in turn (measureInterleaved), so both sides meet the same load.
 */
import { randomUUID } from 'node:crypto';
import type { Executor } from '../shared/neo4j/executor';
import { BenchClient } from './benchClient';
import { syntheticTrail } from './fixtureQueries';
import { measureInterleaved, ratio, Sample } from './stats';

export const SHORT = 10;
export const LONG = 10_000;
/** Changes of each trail that touch the node besides the batch that added it. */
const NODE_CHANGES = 5;
const RUNS = 40;
/** Untimed reads of each side first: the plans compiled and the pages cached. */
const WARMUP = 5;

export interface NodeHistoryFigures {
  samples: Sample[];
  /** The long trail's p50 over the short one's (target: within 1.3). */
  ratio: string;
}

async function branchWithTrail(
  client: BenchClient,
  executor: Executor,
  projectId: string,
  userId: string,
  length: number,
): Promise<{ branchId: string; nodeId: string }> {
  const branchId = await client.fork(projectId);
  const nodeId = randomUUID();
  await client.applyDeltas(
    branchId,
    [{ type: 'add_node', node: { id: nodeId, parent_id: null, data: { name: 'blamed' } } }],
    0,
  );
  await executor.write(syntheticTrail, {
    branchId,
    nodeId,
    actorId: userId,
    now: new Date().toISOString(),
    from: 2,
    to: length,
    step: Math.floor(length / NODE_CHANGES),
  });
  return { branchId, nodeId };
}

export async function runNodeHistoryBench(options: {
  client: BenchClient;
  executor: Executor;
  userId: string;
}): Promise<NodeHistoryFigures> {
  const { client, executor, userId } = options;
  process.stderr.write(`node history: trails of ${SHORT} and ${LONG} changes ...\n`);
  const { projectId } = await client.createProject();
  const short = await branchWithTrail(client, executor, projectId, userId, SHORT);
  const long = await branchWithTrail(client, executor, projectId, userId, LONG);
  const read = (b: { branchId: string; nodeId: string }) => async () => {
    const body = await client.call('GET', `/v1/branches/${b.branchId}/node/${b.nodeId}/history`);
    if (body.changes.length !== NODE_CHANGES + 1)
      throw new Error(`expected ${NODE_CHANGES + 1} changes, read ${body.changes.length}`);
  };
  const [s, l] = await measureInterleaved(
    [
      { label: `node history (API), trail of ${SHORT}`, step: read(short) },
      { label: `node history (API), trail of ${LONG}`, step: read(long) },
    ],
    LONG,
    RUNS,
    WARMUP,
  );
  return { samples: [s, l], ratio: ratio(l, s) };
}
