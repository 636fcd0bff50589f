/**
 * Operability: probes, Prometheus metrics, the raw OpenAPI document,
 * graceful shutdown that drains requests in flight, and configuration errors
 * reported all at once at start.
 */
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { expect } from 'chai';
import { parse } from 'yaml';
import { readFileSync } from 'node:fs';
import { loadConfigWith } from '../shared/config/config';
import { createLogger } from '../shared/logging/logger';
import { startService } from '../services/gateway/server';
import { OPENAPI_PATH } from '../services/platform';
import { currentHarness, newUser, TEST_ENV, uniqueName } from './support/harness';

/** The value of one sample line of a Prometheus exposition, or undefined. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    const inside = line.slice(name.length + 1, line.lastIndexOf('}'));
    const parts = inside.split(',');
    if (wanted.every((w) => parts.includes(w)))
      return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

async function metricsText(): Promise<string> {
  const res = await currentHarness().anon.get<string>('/metrics');
  expect(res.status).to.equal(200);
  expect(res.headers.get('content-type')).to.match(/^text\/plain/);
  return res.body;
}

/** Starts a POST whose body is sent in two parts; resolves the status once answered. */
function slowPost(url: string, token: string, body: string) {
  const target = new URL('/v1/projects', url);
  let finish!: () => void;
  const answered = new Promise<number>((resolve, reject) => {
    const req = request(
      target,
      {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.write(body.slice(0, 5));
    finish = () => req.end(body.slice(5));
  });
  return { answered, finish: () => finish() };
}

describe('operability', () => {
  it('/healthz answers alive without touching dependencies; /readyz checks both', async () => {
    const { anon, config } = currentHarness();
    const live = await anon.get('/healthz');
    expect(live.status).to.equal(200);
    expect(live.body).to.deep.equal({ status: 'ok', version: config.serviceVersion });
    const ready = await anon.get('/readyz');
    expect(ready.status).to.equal(200);
    expect(ready.body).to.include({ status: 'ok', neo4j: 'up', redis: 'up' });
  });

  it('counts requests and latency per operationId and status', async () => {
    const alice = await newUser();
    await alice.api.get('/v1/projects');
    const before = await metricsText();
    const labels = { operation_id: 'listProjects', method: 'GET', status: '200' };
    const count = sample(before, 'gds_http_requests_total', labels) ?? 0;
    expect(count).to.be.greaterThan(0);
    await alice.api.get('/v1/projects');
    await alice.api.post('/v1/projects', { name: '' });
    await currentHarness().anon.get('/v1/projects');
    const after = await metricsText();
    expect(sample(after, 'gds_http_requests_total', labels)).to.equal(count + 1);
    expect(sample(after, 'gds_http_request_duration_seconds_count', labels)).to.equal(count + 1);
    expect(
      sample(after, 'gds_http_request_duration_seconds_bucket', { ...labels, le: '+Inf' }),
    ).to.equal(count + 1);
    const invalid = { operation_id: 'createProject', method: 'POST', status: '422' };
    expect(sample(after, 'gds_http_requests_total', invalid)).to.be.greaterThan(0);
    const anon = { operation_id: 'listProjects', method: 'GET', status: '401' };
    expect(sample(after, 'gds_http_requests_total', anon)).to.be.greaterThan(0);
  });

  it('reports Neo4j query latency per named query and the depth of both queues', async function () {
    this.timeout(90_000);
    const alice = await newUser();
    await alice.api.post('/v1/projects', { name: uniqueName() });
    // A queue's depth is read from Redis at most every 5 s, and a scrape waits 2.5 s for
    // it: on a loaded machine the first read of a fresh queue handle can miss, and the
    // scrape leaves the queue out (and counts a scrape error) until a read has answered:
    // up to a minute of scrapes, for a machine loaded by the suites beside this one.
    const depthsOf = (scraped: string) =>
      ['decisions', 'purge'].flatMap((queue) =>
        ['waiting', 'active', 'delayed', 'failed'].map((state) => ({
          queue,
          state,
          value: sample(scraped, 'gds_queue_jobs', { queue, state }),
        })),
      );
    let text = await metricsText();
    for (let read = 1; read < 12 && depthsOf(text).some((d) => d.value === undefined); read++) {
      await new Promise((resolve) => setTimeout(resolve, 5200));
      text = await metricsText();
    }
    const queries = text
      .split('\n')
      .filter((l) => l.startsWith('gds_neo4j_query_duration_seconds_count{'));
    expect(queries.length).to.be.greaterThan(3);
    expect(queries.every((l) => /query="[A-Za-z0-9_.:-]+"/.test(l))).to.equal(true);
    for (const { queue, state, value } of depthsOf(text)) {
      expect(value, `${queue} ${state}`).to.be.a('number');
    }
    expect(text).to.match(/^gds_process_cpu_seconds_total /m);
  });

  it('serves the OpenAPI document as YAML and JSON', async () => {
    const { service } = currentHarness();
    const yamlText = await (await fetch(`${service.url}/openapi.yaml`)).text();
    expect(yamlText).to.equal(readFileSync(OPENAPI_PATH, 'utf8'));
    const json = await (await fetch(`${service.url}/openapi.json`)).json();
    expect(json).to.deep.equal(parse(yamlText));
  });

  describe('graceful shutdown', () => {
    async function ownService(shutdownSeconds: number) {
      const config = loadConfigWith({
        ...TEST_ENV,
        SHUTDOWN_TIMEOUT_S: String(shutdownSeconds),
      });
      return startService(config, createLogger({ level: 'silent' }));
    }

    it('lets a request in flight finish, refuses new connections, then closes', async function () {
      this.timeout(20_000);
      const service = await ownService(10);
      const alice = await newUser();
      const slow = slowPost(service.url, alice.token, JSON.stringify({ name: uniqueName() }));
      await new Promise((r) => setTimeout(r, 200));
      let closed = false;
      const closing = service.close().then(() => {
        closed = true;
      });
      await new Promise((r) => setTimeout(r, 300));
      expect(closed, 'close waits for the request in flight').to.equal(false);
      const refused = await fetch(`${service.url}/healthz`).then(
        () => false,
        () => true,
      );
      expect(refused, 'no new connections while draining').to.equal(true);
      slow.finish();
      expect(await slow.answered).to.equal(201);
      await closing;
      expect(closed).to.equal(true);
    });

    it('cuts requests that outlive SHUTDOWN_TIMEOUT_S', async function () {
      this.timeout(20_000);
      const service = await ownService(1);
      const alice = await newUser();
      const slow = slowPost(service.url, alice.token, JSON.stringify({ name: uniqueName() }));
      const outcome = slow.answered.then(
        (status) => `answered ${status}`,
        () => 'cut',
      );
      await new Promise((r) => setTimeout(r, 200));
      const started = Date.now();
      await service.close();
      expect(Date.now() - started).to.be.within(900, 6000);
      expect(await outcome).to.equal('cut');
    });
  });

  /** Runs an entry point with a broken environment; resolves its exit code and stderr. */
  async function startBroken(env: string[], args: string[]) {
    const child = spawn('env', ['-u', 'INTERNAL_SECRET', ...env, 'npx', 'tsx', ...args], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    return { code, stderr };
  }

  it('reports every configuration problem at once and exits 2', async function () {
    this.timeout(30_000);
    const { code, stderr } = await startBroken(
      ['PORT=eighty', 'REDIS_URL=http://nowhere', 'NEO4J_URI=ftp://x', 'SHUTDOWN_TIMEOUT_S=-1'],
      ['services/launcher/main.ts'],
    );
    expect(code).to.equal(2);
    for (const name of ['PORT', 'REDIS_URL', 'NEO4J_URI', 'SHUTDOWN_TIMEOUT_S']) {
      expect(stderr).to.contain(name);
    }
  });

  it('a service process of split mode reports its name, INTERNAL_SECRET and the rest at once', async function () {
    this.timeout(30_000);
    const { code, stderr } = await startBroken(
      ['PORT=eighty'],
      ['services/split/main.ts', 'graph-reed'],
    );
    expect(code).to.equal(2);
    for (const text of ['service name', 'graph-reed', 'INTERNAL_SECRET', 'PORT']) {
      expect(stderr).to.contain(text);
    }
  });
});
