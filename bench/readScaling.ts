/**
 * `make bench-split`, second part: read scaling in separate-process mode. The split
 * topology runs with one and then with two graph-read processes behind the gateway
 * (SERVICE_URLS `graph-read=url1,url2`, called in turn); the same fixed concurrent
 * load of branch-graph reads (autocannon, C connections for D seconds) runs against
 * each, and the benchmark prints throughput, p50/p95 latency, errors and how many
 * requests each graph-read process served. On a small machine the point is that two
 * processes serve without errors and share the load, not a speed-up.
 *   npx tsx bench/readScaling.ts [--connections 16] [--duration 10]
 */
import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { createLogger } from '../shared/logging/logger';
import { SplitTopology, startSplitTopology } from '../test/support/splitTopology';
import { benchEnv, benchUser, branchWith } from './benchService';
import { percentile } from './stats';

const ENV = benchEnv();

interface Row {
  processes: number;
  requests: number;
  perSecond: number;
  p50: number;
  p95: number;
  failed: number;
  perProcess: number[];
}

/** getBranchGraph calls a graph-read process has answered (its /metrics). */
async function servedBy(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  let total = 0;
  for (const line of text.split('\n')) {
    if (line.startsWith('gds_http_requests_total{') && line.includes('"getBranchGraph"'))
      total += Number(line.split(' ').at(-1));
  }
  return total;
}

const WARM_UP_REQUESTS = 300;

/** `amount` > 0: that many requests instead of `duration` seconds. */
function load(
  url: string,
  token: string,
  connections: number,
  duration: number,
  amount = 0,
): Promise<{ times: number[]; failed: number; total: number; seconds: number }> {
  const times: number[] = [];
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url,
        connections,
        duration,
        ...(amount > 0 ? { amount } : {}),
        timeout: 30,
        headers: { authorization: `Bearer ${token}` },
      },
      (error, result) => {
        if (error) return reject(error);
        resolve({
          times,
          failed: result.non2xx + result.errors + result.timeouts,
          total: result.requests.total,
          seconds: result.duration,
        });
      },
    );
    instance.on('response', (_client, _status, _bytes, ms) => times.push(ms));
  });
}

async function measure(processes: number, connections: number, duration: number): Promise<Row> {
  const logger = createLogger({ level: 'warn' });
  const topology: SplitTopology = await startSplitTopology(ENV, logger, {
    replicas: { 'graph-read': processes },
  });
  try {
    const { client, token } = await benchUser(topology);
    const nodes = Array.from({ length: 100 }, () => ({
      type: 'add_node',
      node: { id: randomUUID(), kind: 'behavior' },
    }));
    const { branchId } = await branchWith(client, nodes);
    const url = `${topology.url}/v1/branches/${branchId}/graph`;
    // warm-up: the JVM's JIT and the page cache, and every process's connections
    await load(url, token, 4, 0, WARM_UP_REQUESTS);
    const readers = topology.processes.filter((p) => p.name === 'graph-read');
    const before = await Promise.all(readers.map((p) => servedBy(p.url)));
    const run = await load(url, token, connections, duration);
    await new Promise((resolve) => setTimeout(resolve, 1000)); // answers still on the way
    const after = await Promise.all(readers.map((p) => servedBy(p.url)));
    const sorted = [...run.times].sort((a, b) => a - b);
    return {
      processes,
      requests: run.total,
      perSecond: run.total / run.seconds,
      p50: percentile(sorted, 50),
      p95: percentile(sorted, 95),
      failed: run.failed,
      perProcess: after.map((n, i) => n - before[i]),
    };
  } finally {
    await topology.close();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      connections: { type: 'string', default: '16' },
      duration: { type: 'string', default: '10' },
    },
  });
  const connections = Number(values.connections);
  const duration = Number(values.duration);
  const rows: Row[] = [];
  for (const processes of [1, 2]) rows.push(await measure(processes, connections, duration));
  console.log(
    `\nread scaling: GET branch graph (100 nodes), ${connections} connections, ${duration} s each`,
  );
  console.log(
    '| graph-read processes | requests | req/s | p50 ms | p95 ms | failed | served per process |',
  );
  console.log('|---|---|---|---|---|---|---|');
  for (const r of rows) {
    console.log(
      `| ${r.processes} | ${r.requests} | ${r.perSecond.toFixed(0)} | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} | ${r.failed} | ${r.perProcess.join(' / ')} |`,
    );
  }
  const [one, two] = rows;
  const served = two.perProcess.reduce((a, b) => a + b, 0);
  const shares = two.perProcess.map((n) => n / Math.max(1, served));
  console.log(
    `\nthroughput two / one processes: ${(two.perSecond / one.perSecond).toFixed(2)}x; ` +
      `p95 two / one: ${(two.p95 / one.p95).toFixed(2)}x; ` +
      `share of reads per process with two: ${shares.map((s) => `${(s * 100).toFixed(0)}%`).join(' / ')}`,
  );
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
