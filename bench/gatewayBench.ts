/**
 * The gateway's fixed cost per request, alone: throughput under autocannon of an
 * authenticated API route whose handler does no database work (request id,
 * routing, authentication with the per-process key cache, the Redis rate limit,
 * query validation, metrics and an access log line at info level), against a bare
 * express route answering the same JSON. autocannon runs as a child process so it
 * does not share the event loop of the servers it measures; the two targets are
 * measured in alternating rounds. The target is judged on the median of each round's
 * ratio (the gateway's round against the bare route's round right after it): this
 * machine's speed drifts by up to 2x within minutes, and a pair of rounds a few seconds
 * apart sees about the same machine where the medians of each side may not.
 */
import { spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import type { RedisClient } from '../shared/redis/redisClient';
import type { Config } from '../shared/config/config';
import { ok } from '../shared/http/operation';
import { createLogger } from '../shared/logging/logger';
import type { Executor } from '../shared/neo4j/executor';
import { createGateway, opsRouter, RateLimits } from '../services/gateway';
import { OPENAPI_PATH, ServiceMetrics } from '../services/platform';
import { AuthCache, Authenticator, RevocationFeed } from '../services/identity';
import { verdict } from './stats';

export interface GatewaySample {
  label: string;
  /** Requests per second of each round. */
  rounds: number[];
  median: number;
  /** Median of the per-round p50 latencies, in milliseconds. */
  p50: number;
  /** Median CPU time of this process (the servers) per request, in microseconds. */
  cpuPerRequest: number;
}

export interface GatewayBenchOptions {
  executor: Executor;
  redis: RedisClient;
  config: Config;
  token: string;
  rounds: number;
  seconds: number;
  connections: number;
}

const PATH = '/v1/projects?limit=1';

function listen(app: express.Express): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = app.listen(0, '127.0.0.1', () => resolve(server));
    server.once('error', reject);
  });
}

const urlOf = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

interface CannonResult {
  requests: { average: number; total: number };
  latency: { p50: number };
  non2xx: number;
  errors: number;
  statusCodeStats?: Record<string, { count: number }>;
}

export function cannon(url: string, token: string, seconds: number, connections: number) {
  const args = [
    require.resolve('autocannon/autocannon.js'),
    '-j',
    '-c',
    String(connections),
    '-d',
    String(seconds),
    '-H',
    `Authorization=Bearer ${token}`,
    url,
  ];
  return new Promise<CannonResult>((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`autocannon exited with ${code}`));
      const result = JSON.parse(out) as CannonResult;
      if (result.non2xx > 0 || result.errors > 0)
        return reject(
          new Error(
            `${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors (status counts: ${JSON.stringify(result.statusCodeStats ?? {})})`,
          ),
        );
      resolve(result);
    });
  });
}

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function runGatewayBench(options: GatewayBenchOptions): Promise<GatewaySample[]> {
  const { config, token } = options;
  const answer = { projects: [], version: config.serviceVersion };
  const metrics = new ServiceMetrics({ defaultMetrics: false });
  // as the service runs it: revocations pushed to the process, rate limits leased
  const revocations = new RevocationFeed({ redis: options.redis });
  const gateway = await createGateway({
    definitionPath: OPENAPI_PATH,
    // the service's logger at info level (an access line per request), written to /dev/null
    logger: createLogger({ level: 'info', destination: '/dev/null' }),
    authenticator: new Authenticator({
      executor: options.executor,
      cache: new AuthCache({
        redis: options.redis,
        ttlSeconds: config.authCacheTtlSeconds,
        feed: revocations,
      }),
    }),
    rateLimits: new RateLimits({
      redis: options.redis,
      prefix: 'bench-rl',
      perMinute: { read: 100_000_000, write: 100_000_000, anon: 100_000_000 },
    }),
    maxBodyBytes: config.limits.maxBodyBytes,
    // the per-key in-flight limit at the service's default (16), above autocannon's connections
    observeRequest: metrics.observeRequest,
    plainRoutes: opsRouter({ definitionPath: OPENAPI_PATH, metrics }),
    operations: { listProjects: async () => ok(answer) },
  });
  const bare = express();
  bare.get('/v1/projects', (_req, res) => {
    res.json(answer);
  });
  const servers = [await listen(gateway), await listen(bare)];
  const targets = [
    { label: 'gateway, no database work (listProjects stub)', url: `${urlOf(servers[0])}${PATH}` },
    { label: 'bare express route', url: `${urlOf(servers[1])}${PATH}` },
  ];
  const results = targets.map(() => ({
    rps: [] as number[],
    p50: [] as number[],
    cpu: [] as number[],
  }));
  try {
    // warm both (JIT, key cache, connections), then alternate rounds
    for (const t of targets) await cannon(t.url, token, 2, options.connections);
    for (let round = 0; round < options.rounds; round++) {
      for (const [i, t] of targets.entries()) {
        const before = process.cpuUsage();
        const r = await cannon(t.url, token, options.seconds, options.connections);
        const cpu = process.cpuUsage(before);
        const perRequest = (cpu.user + cpu.system) / Math.max(1, r.requests.total);
        results[i].rps.push(r.requests.average);
        results[i].p50.push(r.latency.p50);
        results[i].cpu.push(perRequest);
        process.stderr.write(
          `  ${t.label}: ${r.requests.average.toFixed(0)} req/s, p50 ${r.latency.p50} ms, ${perRequest.toFixed(0)} us CPU/request\n`,
        );
      }
    }
  } finally {
    await revocations.close();
    await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  }
  return targets.map((t, i) => ({
    label: t.label,
    rounds: results[i].rps,
    median: median(results[i].rps),
    p50: median(results[i].p50),
    cpuPerRequest: median(results[i].cpu),
  }));
}

/** The median of the ratios of round i of `a` to round i of `b`. */
const pairedRatio = (a: GatewaySample, b: GatewaySample) =>
  median(a.rounds.map((rps, i) => rps / b.rounds[i]));

export function reportGateway(samples: GatewaySample[], connections: number): void {
  console.log(`\nGateway alone (autocannon, ${connections} connections, GET ${PATH})`);
  for (const s of samples) {
    console.log(
      `  ${s.label.padEnd(48)} median ${s.median.toFixed(0).padStart(6)} req/s, p50 ${s.p50} ms, ${s.cpuPerRequest.toFixed(0)} us CPU/request  (rounds: ${s.rounds.map((r) => r.toFixed(0)).join(', ')} req/s)`,
    );
  }
  const [gateway, bare] = samples;
  const ratio = pairedRatio(gateway, bare);
  console.log(
    `  gateway/bare throughput: ${(ratio * 100).toFixed(0)}%, median of the rounds' ratios (target at least 60%: ${verdict(ratio >= 0.6)}); of the medians ${((gateway.median / bare.median) * 100).toFixed(0)}%; CPU per request bare/gateway: ${((bare.cpuPerRequest / gateway.cpuPerRequest) * 100).toFixed(0)}%`,
  );
}
