/**
 * What tracing costs the gateway: throughput of an authenticated read (listProjects,
 * GET /v1/projects?limit=1: authentication from the key cache, the rate limit, one
 * Neo4j read, the answer) through two gateway processes started as deployed
 * (services/gateway/main, through the process start-up), one with OTEL_* set
 * (every trace sampled, OTLP/HTTP protobuf to a sink in this process that accepts and
 * drops every export) and one without. autocannon runs as a child process; the two are
 * measured in alternating rounds and the median requests/second of each is compared.
 *   make bench (--only tracing), or alone on a stack of scripts/with-stack.sh:
 *   node .run/bench-dist/bench/tracingBench.js [--rounds 3] [--seconds 5]
 */
import { ChildProcess, spawn } from 'node:child_process';
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Executor } from '../shared/neo4j/executor';
import { createLogger } from '../shared/logging/logger';
import { createApiKey } from '../services/identity';
import { benchConfig, benchEnv } from './benchService';
import { cannon, median } from './gatewayBench';
import { uniqueLabel } from './labels';

const PATH = '/v1/projects?limit=1';

export interface TracingSample {
  label: string;
  rounds: number[];
  median: number;
  p50: number;
}

/** An OTLP/HTTP endpoint that takes every export and keeps nothing; counts the bytes. */
async function startSink(): Promise<{ url: string; bytes: () => number; server: Server }> {
  let bytes = 0;
  const server = createServer((req, res) => {
    req.on('data', (chunk: Buffer) => (bytes += chunk.length));
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    bytes: () => bytes,
    server,
  };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A gateway process (the compiled entry point, or the .ts one through tsx). */
async function startGateway(
  env: Record<string, string>,
): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const compiled = __filename.endsWith('.js');
  const main = join(__dirname, '..', 'services', 'gateway', compiled ? 'main.js' : 'main.ts');
  const vars = Object.entries(benchEnv({ ...env, PORT: String(port) })).map(
    ([k, v]) => `${k}=${v}`,
  );
  const node = compiled ? [process.execPath, main] : [process.execPath, '--import', 'tsx', main];
  // `env` adds the settings to the environment this run inherits (the stack's NEO4J_URI, REDIS_URL)
  const child = spawn('env', [...vars, ...node], { stdio: ['ignore', 'ignore', 'inherit'] });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the gateway exited with ${child.exitCode}`);
    const ready = await fetch(`${url}/readyz`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ready) return { url, child };
    await new Promise((r) => setTimeout(r, 250));
  }
  child.kill('SIGKILL');
  throw new Error('the gateway did not become ready');
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    const kill = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

export async function runTracingBench(options: {
  executor: Executor;
  rounds: number;
  seconds: number;
  connections: number;
}): Promise<{ samples: TracingSample[]; exportedBytes: number }> {
  const key = await createApiKey(options.executor, {
    user: uniqueLabel('tracing'),
    scopes: ['graph:write'],
    projects: null,
  });
  const sink = await startSink();
  const targets: { label: string; env: Record<string, string> }[] = [
    {
      label: 'tracing on (all sampled, exported)',
      env: {
        OTEL_EXPORTER_OTLP_ENDPOINT: sink.url,
        OTEL_TRACES_SAMPLER: 'always_on',
        OTEL_BSP_SCHEDULE_DELAY: '1000',
      },
    },
    { label: 'tracing off (OTEL_* unset)', env: {} },
  ];
  const started: { url: string; child: ChildProcess }[] = [];
  const results = targets.map(() => ({ rps: [] as number[], p50: [] as number[] }));
  try {
    for (const t of targets) started.push(await startGateway(t.env));
    const urls = started.map((s) => `${s.url}${PATH}`);
    // warm both (JIT, key cache, plans, connections), then alternate rounds
    for (const url of urls) await cannon(url, key.token, 2, options.connections);
    for (let round = 0; round < options.rounds; round++) {
      for (const [i, t] of targets.entries()) {
        const r = await cannon(urls[i], key.token, options.seconds, options.connections);
        results[i].rps.push(r.requests.average);
        results[i].p50.push(r.latency.p50);
        process.stderr.write(
          `  ${t.label}: ${r.requests.average.toFixed(0)} req/s, p50 ${r.latency.p50} ms\n`,
        );
      }
    }
  } finally {
    await Promise.all(started.map((s) => stop(s.child)));
    await new Promise((resolve) => sink.server.close(resolve));
  }
  const samples = targets.map((t, i) => ({
    label: t.label,
    rounds: results[i].rps,
    median: median(results[i].rps),
    p50: median(results[i].p50),
  }));
  return { samples, exportedBytes: sink.bytes() };
}

export function reportTracing(
  result: { samples: TracingSample[]; exportedBytes: number },
  connections: number,
): void {
  console.log(
    `\nGateway with tracing (autocannon, ${connections} connections, GET ${PATH}, one Neo4j read)`,
  );
  for (const s of result.samples) {
    console.log(
      `  ${s.label.padEnd(40)} median ${s.median.toFixed(0).padStart(6)} req/s, p50 ${s.p50} ms  (rounds: ${s.rounds.map((r) => r.toFixed(0)).join(', ')} req/s)`,
    );
  }
  const [on, off] = result.samples;
  console.log(
    `  tracing on/off throughput: ${((on.median / off.median) * 100).toFixed(0)}%; spans exported: ${(result.exportedBytes / 1024).toFixed(0)} KiB (OTLP protobuf)`,
  );
}

/** Alone: on the stack of scripts/with-stack.sh (NEO4J_URI, REDIS_URL). */
if (require.main === module) {
  void (async () => {
    const { values } = parseArgs({
      options: {
        rounds: { type: 'string', default: '3' },
        seconds: { type: 'string', default: '5' },
        connections: { type: 'string', default: '10' },
      },
    });
    const config = benchConfig();
    const executor = new Executor({ ...config.neo4j, logger: createLogger({ level: 'warn' }) });
    try {
      const connections = Number(values.connections);
      const result = await runTracingBench({
        executor,
        rounds: Number(values.rounds),
        seconds: Number(values.seconds),
        connections,
      });
      reportTracing(result, connections);
    } finally {
      await executor.close();
    }
  })().catch((error: unknown) => {
    process.stderr.write(
      `tracing bench failed: ${error instanceof Error ? error.stack : String(error)}\n`,
    );
    process.exit(1);
  });
}
