/**
 * `make run-split` itself: scripts/run-split.sh starts the gateway
 * (services/gateway/main.ts with SERVICE_URLS), the five service processes and the
 * worker on loopback, against this run's Neo4j and Redis; the API it serves is the
 * one the rest of the suite checks (every response validated against the OpenAPI
 * document), and SIGTERM stops every process. The whole HTTP suite also runs through
 * the split topology (make integration-split); this test covers the script and the
 * gateway's own entry point.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { expect } from 'chai';
import { createApiKey } from '../services/identity/commands/createApiKey';
import { ApiClient } from './support/client';
import { addNode, uuid } from './support/graphBuilders';
import { ALL_SCOPES, currentHarness, uniqueName } from './support/harness';

const ROOT = join(__dirname, '..');
const GATEWAY_PORT = 27480;
const BASE_PORT = 27491; // 27491..27495: projects, branches, graph-read, graph-write, decisions

async function portAnswers(port: number): Promise<boolean> {
  try {
    await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(1000) });
    return true;
  } catch {
    return false;
  }
}

async function waitUntil(what: string, check: () => Promise<boolean>, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`${what} within ${ms} ms`);
}

describe('make run-split', function () {
  this.timeout(180_000);
  let script: ChildProcess;
  let log = '';

  before(async () => {
    const { config } = currentHarness();
    // `env` adds this run's stack and ports to the inherited environment
    const vars = {
      PORT: String(GATEWAY_PORT),
      SPLIT_BASE_PORT: String(BASE_PORT),
      LOG_LEVEL: 'warn',
      // the statements each process runs are counted below: the request's alone
      NEO4J_WARM_PLANS: 'false',
      NEO4J_URI: config.neo4j.uri,
      REDIS_URL: config.redisUrl,
    };
    const assignments = Object.entries(vars).map(([k, v]) => `${k}=${v}`);
    script = spawn('env', [...assignments, 'bash', 'scripts/run-split.sh'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    script.stdout!.on('data', (d: Buffer) => (log += d.toString()));
    script.stderr!.on('data', (d: Buffer) => (log += d.toString()));
    await waitUntil(
      'run-split.sh did not serve /readyz',
      async () => {
        if (script.exitCode !== null) throw new Error(`run-split.sh exited early:\n${log}`);
        const res = await fetch(`http://127.0.0.1:${GATEWAY_PORT}/readyz`).catch(() => null);
        return res?.status === 200;
      },
      150_000,
    );
  });

  // A run that failed before the test's own SIGTERM stops the script the same way: its trap
  // stops the processes it started. A SIGKILL alone would leave them serving, their ports
  // taken for the next run; it comes only if the script has not ended in 15 s.
  after(async () => {
    if (!script || script.exitCode !== null || script.signalCode !== null) return;
    const exited = new Promise((resolve) => script.once('exit', resolve));
    script.kill('SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 15_000))]);
    if (script.exitCode === null && script.signalCode === null) script.kill('SIGKILL');
  });

  it('serves the API through the gateway and five service processes, then stops all on SIGTERM', async () => {
    const key = await createApiKey(currentHarness().service.executor, {
      user: `split-${uuid()}`,
      scopes: ALL_SCOPES,
      projects: null,
    });
    const api = new ApiClient(
      `http://127.0.0.1:${GATEWAY_PORT}`,
      currentHarness().contract,
      key.token,
    );
    const created = await api.post('/v1/projects', { name: uniqueName() }); // projects
    expect(created.status).to.equal(201);
    const projectId = created.body.project.id;
    const fork = await api.post(`/v1/projects/${projectId}/branches`, { name: 'w' }); // branches
    expect(fork.status).to.equal(201);
    const branchId = fork.body.branch.id;
    const node = uuid();
    const applied = await api.post(`/v1/branches/${branchId}/deltas`, {
      deltas: [addNode({ id: node, data: { name: 'n' } })],
      expected_version: 0,
    }); // graph-write
    expect(applied.status).to.equal(200);
    const graph = await api.get(`/v1/branches/${branchId}/graph`); // graph-read
    expect(graph.body.nodes.map((n: any) => n.id)).to.deep.equal([node]);
    const decisions = await api.get(`/v1/decisions?project_id=${projectId}`); // decisions
    expect(decisions.status).to.equal(200);
    const denied = await api.withToken(undefined).get('/v1/projects');
    expect(denied.status).to.equal(401);
    // each service process serves its own metrics: its calls and the Cypher it ran
    const writeMetrics = await fetch(`http://127.0.0.1:${BASE_PORT + 3}/metrics`);
    const text = await writeMetrics.text();
    expect(text).to.match(
      /gds_http_requests_total\{operation_id="applyDeltas",method="POST",status="200"\} 1/,
    );
    expect(text).to.match(
      /gds_neo4j_query_duration_seconds_count\{query="lockAndPrefetchAddRun",outcome="ok"\} 1/,
    );
    const ready = await fetch(`http://127.0.0.1:${BASE_PORT + 2}/readyz`);
    expect(ready.status).to.equal(200);

    const exited = new Promise<number | null>((resolve) => script.once('exit', resolve));
    script.kill('SIGTERM');
    expect(await exited).to.be.oneOf([0, 143]);
    for (const port of [GATEWAY_PORT, ...[0, 1, 2, 3, 4].map((i) => BASE_PORT + i)]) {
      expect(await portAnswers(port), `port ${port} still answers`).to.equal(false);
    }
  });
});
