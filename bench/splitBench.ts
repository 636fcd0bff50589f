/**
 * `make bench-split`: the latency cost of separate-process mode. The
 * same requests against the service in process and against the split topology
 * (gateway + five service processes, test/support/splitTopology.ts) on one
 * throw-away stack, both warmed up and measured operation by operation in turn;
 * prints p50/p95 per operation and the median of the p50 ratios.
 *   npx tsx bench/splitBench.ts [--runs 100]
 */
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { loadConfigWith } from '../shared/config/config';
import { createLogger } from '../shared/logging/logger';
import { RunningService, startService } from '../services/gateway';
import { startSplitTopology } from '../test/support/splitTopology';
import { benchEnv, benchUser, branchWith } from './benchService';
import { BenchClient } from './benchClient';
import { measure, printTable, Sample } from './stats';

const ENV = benchEnv();

const addNode = () => ({ type: 'add_node', node: { id: randomUUID(), kind: 'behavior' } });

interface Target {
  size: number;
  client: BenchClient;
  branchId: string;
  version: number;
}

async function prepare(service: RunningService, size: number): Promise<Target> {
  const { client } = await benchUser(service);
  const { branchId, version } = await branchWith(client, Array.from({ length: 100 }, addNode));
  return { size, client, branchId, version };
}

const OPERATIONS: [string, (t: Target) => Promise<unknown>][] = [
  ['GET /v1/projects', (t) => t.client.call('GET', '/v1/projects')],
  ['GET branch graph (100 nodes)', (t) => t.client.readGraph(t.branchId)],
  [
    'POST deltas (1 add_node)',
    async (t) => {
      t.version = await t.client.applyDeltas(t.branchId, [addNode()], t.version);
    },
  ],
  ['POST validate', (t) => t.client.validate(t.branchId)],
];

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { runs: { type: 'string', default: '100' } } });
  const runs = Number(values.runs);
  const logger = createLogger({ level: 'warn' });
  const inProcess = await startService(loadConfigWith(ENV), logger);
  const split = await startSplitTopology(ENV, logger);
  const local: Sample[] = [];
  const remote: Sample[] = [];
  try {
    const [a, b] = [await prepare(inProcess, 1), await prepare(split, 2)];
    // Both topologies warm, then each operation measured on one and then the other.
    for (const [label, step] of OPERATIONS) {
      local.push(await measure(label, a.size, runs, () => step(a).then(() => undefined), 20));
      remote.push(await measure(label, b.size, runs, () => step(b).then(() => undefined), 20));
    }
  } finally {
    await Promise.allSettled([inProcess.close(), split.close()]);
  }

  printTable('in process and split', [...local, ...remote], (n) =>
    n === 1 ? 'in process' : 'split',
  );
  const ratios = local.map((s, i) => remote[i].p50 / s.p50).sort((a, b) => a - b);
  console.log('\n| operation | in process p50 ms | split p50 ms | ratio |');
  console.log('|---|---|---|---|');
  local.forEach((s, i) =>
    console.log(
      `| ${s.label} | ${s.p50.toFixed(1)} | ${remote[i].p50.toFixed(1)} | ${(remote[i].p50 / s.p50).toFixed(2)}x |`,
    ),
  );
  const mid = Math.floor(ratios.length / 2);
  const median = ratios.length % 2 ? ratios[mid] : (ratios[mid - 1] + ratios[mid]) / 2;
  console.log(`\nmedian p50 ratio split / in process: ${median.toFixed(2)}x`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
