/**
 * MCP calls get exactly the access rules of the HTTP routes: the same 401 at /mcp
 * without a valid key, the same 403 bodies for a key without graph:write or a
 * viewer, the same rate-limit buckets, and an apply_deltas retried after its
 * answer was lost applies once.
 */
import { spawn } from 'node:child_process';
import { createServer, request as httpRequest, Server } from 'node:http';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { loadConfigWith } from '../shared/config/config';
import { createLogger } from '../shared/logging/logger';
import { RunningService, startService } from '../services/gateway/server';
import { ApiClient } from './support/client';
import { currentHarness, grant, newKeyFor, newUser, TEST_ENV, uniqueName } from './support/harness';
import { addNode, uuid, workspace } from './support/graphBuilders';
import { call, connect, connectHttp, connectStdio, ok, Transport } from './support/mcpClients';
import { graphctl } from './support/graphctl';

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'raw', version: '1' },
  },
};

async function postMcp(baseUrl: string, headers: Record<string, string>) {
  const response = await fetch(`${baseUrl}/mcp`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: JSON.stringify(INITIALIZE),
  });
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as any,
  };
}

describe('MCP access: authentication at /mcp', () => {
  it('answers no key and an unknown key with the API 401 (WWW-Authenticate: Bearer)', async () => {
    const { url } = currentHarness().service;
    const api = await currentHarness().anon.get('/v1/projects');
    const attempts: Record<string, string>[] = [
      {},
      { Authorization: 'Bearer gds_unknown_key_0000000000000000' },
    ];
    for (const headers of attempts) {
      const res = await postMcp(url, headers);
      expect(res.status).to.equal(401);
      expect(res.body).to.deep.equal(api.body);
      expect(res.headers.get('www-authenticate')).to.equal('Bearer');
    }
    // with a valid key, only POST: this endpoint keeps no session and opens no stream
    const user = await newUser();
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(`${url}/mcp`, {
        method,
        headers: { Authorization: `Bearer ${user.token}`, Accept: 'text/event-stream' },
      });
      expect(res.status, method).to.equal(405);
      expect(res.headers.get('allow')).to.equal('POST');
    }
    const refused = await connectHttp(undefined).then(
      () => 'connected',
      () => 'refused',
    );
    expect(refused).to.equal('refused');
  });
});

describe('MCP access: graphctl mcp', function () {
  this.timeout(60_000);
  it('answers every request it read before stdin ended, then exits 0', async () => {
    const user = await newUser();
    const lines = [
      { ...INITIALIZE },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'list_projects', arguments: {} },
      },
    ];
    const child = spawn(
      'npm',
      [
        'run',
        '-s',
        'graphctl',
        '--',
        'mcp',
        '--url',
        currentHarness().service.url,
        '--token',
        user.token,
      ],
      { cwd: join(__dirname, '..'), stdio: ['pipe', 'pipe', 'ignore'] },
    );
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stdin.end(lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    const code = await new Promise((resolve) => child.once('exit', resolve));
    expect(code).to.equal(0);
    const answers = out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(answers.map((a) => a.id)).to.deep.equal([1, 2]);
    expect(answers[1].result.isError).to.equal(undefined);
    expect(JSON.parse(answers[1].result.content[0].text).projects).to.deep.equal([]);
  });

  it('refuses to start without a key (usage error, exit 2, nothing on stdout)', async () => {
    const outcome = await graphctl('mcp', '--url', currentHarness().service.url);
    expect(outcome.code).to.equal(2);
    expect(outcome.stdout).to.equal('');
    expect(
      JSON.parse(outcome.stderr.split('\n').find((l) => l.startsWith('{')) ?? '{}'),
    ).to.deep.equal({
      error: 'usage',
      message: 'an API key is needed: --token KEY or GDS_TOKEN',
    });
  });
});

for (const transport of ['http', 'stdio'] as Transport[]) {
  describe(`MCP access over ${transport}: scopes and roles`, function () {
    this.timeout(60_000);
    const clients: Client[] = [];
    after(async () => Promise.all(clients.map((c) => c.close())));

    it('fails the writes of a key without graph:write with the API 403 body', async () => {
      const owner = await newUser();
      const w = await workspace(owner);
      const readOnly = await newKeyFor(owner, { scopes: ['decisions:read'] });
      const client = await connect(transport, readOnly.token);
      clients.push(client);
      const calls: [string, Record<string, unknown>, () => Promise<any>][] = [
        [
          'fork_branch',
          { project_id: w.projectId, name: 'nope' },
          () => readOnly.api.post(`/v1/projects/${w.projectId}/branches`, { name: 'nope' }),
        ],
        [
          'apply_deltas',
          { branch_id: w.branchId, expected_version: 0, deltas: [addNode({})] },
          () =>
            readOnly.api.post(`/v1/branches/${w.branchId}/deltas`, {
              expected_version: 0,
              deltas: [addNode({})],
            }),
        ],
        [
          'merge_branch',
          { branch_id: w.branchId, expected_version: 0 },
          () => readOnly.api.post(`/v1/branches/${w.branchId}/merge`, { expected_version: 0 }),
        ],
      ];
      for (const [tool, args, http] of calls) {
        const viaMcp = await call(client, tool, args);
        const viaHttp = await http();
        expect(viaHttp.status, tool).to.equal(403);
        expect(viaMcp.isError, tool).to.equal(true);
        expect(viaMcp.status, tool).to.equal(403);
        expect(viaMcp.body, tool).to.deep.equal(viaHttp.body);
      }
      // reads still work with that key
      const graph = await ok(client, 'get_branch_graph', { branch_id: w.branchId });
      expect(graph.branch.id).to.equal(w.branchId);
      expect(
        (await owner.api.get(`/v1/branches/${w.branchId}/graph`)).body.branch.version,
      ).to.equal(0);
    });

    it("fails a viewer's fork with the API 403 body", async () => {
      const owner = await newUser();
      const w = await workspace(owner);
      const viewer = await newUser();
      await grant(w.projectId, viewer, 'viewer');
      // over stdio this key is given as --token rather than GDS_TOKEN
      const client =
        transport === 'stdio'
          ? await connectStdio(viewer.token, true)
          : await connectHttp(viewer.token);
      clients.push(client);
      const viaMcp = await call(client, 'fork_branch', { project_id: w.projectId, name: 'v' });
      const viaHttp = await viewer.api.post(`/v1/projects/${w.projectId}/branches`, { name: 'v' });
      expect(viaHttp.status).to.equal(403);
      expect(viaMcp).to.include({ isError: true, status: 403 });
      expect(viaMcp.body).to.deep.equal(viaHttp.body);
      // the viewer reads main like over HTTP
      const main = await ok(client, 'get_main_graph', { project_id: w.projectId });
      expect(main.branch.id).to.equal(w.mainId);
    });
  });
}

describe('MCP access: rate limits', function () {
  this.timeout(60_000);
  let limited: RunningService;
  let client: ApiClient;

  before(async () => {
    const config = loadConfigWith({
      ...TEST_ENV,
      RATE_LIMIT_WRITE_PER_MIN: '3',
      RATE_LIMIT_READ_PER_MIN: '4',
      RATE_LIMIT_ANON_PER_MIN: '2',
    });
    limited = await startService(config, createLogger({ level: 'silent' }));
    client = new ApiClient(limited.url, currentHarness().contract);
  });
  after(async () => limited.close());

  it("counts tool calls in the key's buckets together with its HTTP calls", async () => {
    const alice = await newUser();
    const api = client.withToken(alice.token);
    const mcp = await connectHttp(alice.token, limited.url);
    try {
      // writes: two over HTTP, one over MCP, then the bucket is spent for both
      expect((await api.post('/v1/projects', { name: uniqueName() })).status).to.equal(201);
      expect((await api.post('/v1/projects', { name: uniqueName() })).status).to.equal(201);
      await ok(mcp, 'create_project', { name: uniqueName() });
      const spent = await call(mcp, 'create_project', { name: uniqueName() });
      const http = await api.post('/v1/projects', { name: uniqueName() });
      expect(http.status).to.equal(429);
      expect(spent).to.include({ isError: true, status: 429 });
      expect(spent.body).to.deep.equal({ detail: 'rate_limited' });
      // reads are a separate bucket: four, then 429
      for (let i = 0; i < 4; i++) await ok(mcp, 'list_projects', {});
      const reads = await call(mcp, 'list_projects', {});
      expect(reads).to.include({ isError: true, status: 429 });
      expect(reads.body).to.deep.equal({ detail: 'rate_limited' });
    } finally {
      await mcp.close();
    }
  });

  it('counts unauthenticated /mcp attempts in the address bucket', async () => {
    // an address of its own (the gateway trusts X-Forwarded-For from loopback), so the
    // bucket is not the one every other unauthenticated call of this run shares
    const from = { 'X-Forwarded-For': `198.51.100.${1 + Math.floor(Math.random() * 250)}` };
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await postMcp(limited.url, from));
    expect(answers.map((a) => a.status)).to.deep.equal([401, 401, 429]);
    expect(answers[2].body).to.deep.equal({ detail: 'rate_limited' });
    expect(answers[2].headers.get('retry-after')).to.be.a('string');
  });
});

/** A loopback proxy to /mcp that lets the first tools/call reach the service, then drops its answer. */
async function droppingProxy(
  target: string,
): Promise<{ url: string; server: Server; dropped: () => number }> {
  let dropped = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const drop = dropped === 0 && body.toString().includes('"tools/call"');
      const upstream = httpRequest(
        new URL(req.url ?? '/', target),
        { method: req.method, headers: { ...req.headers, host: new URL(target).host } },
        (answer) => {
          const parts: Buffer[] = [];
          answer.on('data', (c: Buffer) => parts.push(c));
          answer.on('end', () => {
            if (drop) {
              // the service has answered (and applied); the client never hears it
              dropped += 1;
              req.socket.destroy();
              return;
            }
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            res.end(Buffer.concat(parts));
          });
        },
      );
      upstream.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, server, dropped: () => dropped };
}

describe('MCP apply_deltas retried after a lost answer', function () {
  this.timeout(60_000);

  it('applies once: the retry with the same arguments gets the first answer', async () => {
    const user = await newUser();
    const w = await workspace(user);
    const proxy = await droppingProxy(currentHarness().service.url);
    const client = await connectHttp(user.token, proxy.url);
    try {
      const node = addNode({ data: { name: 'once' } });
      const args = { branch_id: w.branchId, expected_version: 0, deltas: [node] };
      const lost = await call(client, 'apply_deltas', args).then(
        () => 'answered',
        () => 'lost',
      );
      expect(lost).to.equal('lost');
      expect(proxy.dropped()).to.equal(1);
      // the first call did apply
      expect((await w.graph()).branch.version).to.equal(1);

      const retry = await call(client, 'apply_deltas', args);
      expect(retry.isError, retry.text).to.equal(false);
      expect(retry.replayed).to.equal(true);
      expect(retry.body.branch.version).to.equal(1);
      const graph = await w.graph();
      expect(graph.branch.version).to.equal(1);
      expect(graph.nodes.map((n: { id: string }) => n.id)).to.deep.equal([node.node.id]);

      // different arguments are a different call: applied, not replayed
      const next = await call(client, 'apply_deltas', {
        branch_id: w.branchId,
        expected_version: 1,
        deltas: [addNode({ id: uuid(), data: { name: 'twice' } })],
      });
      expect(next).to.include({ isError: false, replayed: false });
      expect(next.body.branch.version).to.equal(2);
    } finally {
      await client.close();
      await new Promise((resolve) => proxy.server.close(resolve));
    }
  });
});

describe('MCP access: Origin (DNS-rebinding protection)', function () {
  this.timeout(60_000);
  let configured: RunningService;

  before(async () => {
    const config = loadConfigWith({
      ...TEST_ENV,
      MCP_ALLOWED_ORIGINS: 'https://graph.example.com',
    });
    configured = await startService(config, createLogger({ level: 'silent' }));
  });
  after(async () => configured.close());

  it('refuses a request whose Origin is not allowed with 403, whatever its key', async () => {
    const user = await newUser();
    const auth = { Authorization: `Bearer ${user.token}` };
    const { url } = currentHarness().service;
    // a page of another site, its name pointed at this machine, in the user's browser
    for (const origin of ['http://evil.example', 'http://evil.example:8080', 'null']) {
      const refused = await postMcp(url, { ...auth, Origin: origin });
      expect(refused.status, origin).to.equal(403);
      expect(refused.body.error.code, origin).to.be.a('number');
    }
    // no Origin (an agent, a CLI) and the loopback origins are served
    expect((await postMcp(url, auth)).status).to.equal(200);
    for (const origin of ['http://localhost:5173', 'http://127.0.0.1:8080', 'http://[::1]:8080'])
      expect((await postMcp(url, { ...auth, Origin: origin })).status, origin).to.equal(200);
  });

  it('serves the origins MCP_ALLOWED_ORIGINS lists, and only those', async () => {
    const user = await newUser();
    const auth = { Authorization: `Bearer ${user.token}` };
    const allowed = await postMcp(configured.url, { ...auth, Origin: 'https://graph.example.com' });
    expect(allowed.status).to.equal(200);
    expect(allowed.body.result.serverInfo.name).to.equal('graph-design-service');
    const other = await postMcp(configured.url, { ...auth, Origin: 'https://other.example.com' });
    expect(other.status).to.equal(403);
  });
});

describe('MCP access: positions-only batches and resources at scale', function () {
  this.timeout(120_000);
  let bounded: RunningService;
  let api: ApiClient;

  before(async () => {
    // a handful of requests in flight per key, and room for more projects than that
    const config = loadConfigWith({ ...TEST_ENV, MAX_IN_FLIGHT_PER_KEY: '6', PROJECT_LIMIT: '20' });
    bounded = await startService(config, createLogger({ level: 'silent' }));
    api = new ApiClient(bounded.url, currentHarness().contract);
  });
  after(async () => bounded.close());

  it('applies a repeated positions-only apply_deltas each time: a node moved back is moved back', async () => {
    const user = await newUser();
    const w = await workspace(user);
    const node = addNode({ data: { name: 'moved' } });
    await w.apply([node]);
    const client = await connectHttp(user.token);
    try {
      const at = (x: number, y: number) => ({
        branch_id: w.branchId,
        deltas: [],
        positions: { [node.node.id]: { x, y } },
      });
      for (const [x, y] of [
        [10, 10],
        [20, 20],
        [10, 10], // the same arguments as the first call
      ]) {
        const moved = await call(client, 'apply_deltas', at(x, y));
        expect(moved, moved.text).to.include({ isError: false, replayed: false });
        const graph = await w.graph();
        const position = graph.nodes.find((n: { id: string }) => n.id === node.node.id).position;
        expect(position, `moved to ${x},${y}`).to.deep.equal({ x, y });
      }
    } finally {
      await client.close();
    }
  });

  it('lists the resources of more projects than the key may have requests in flight', async () => {
    const user = await newUser();
    const client = api.withToken(user.token);
    const ids: string[] = [];
    for (let i = 0; i < 15; i++) {
      const created = await client.post('/v1/projects', { name: uniqueName('many') });
      expect(created.status).to.equal(201);
      ids.push(created.body.project.id);
    }
    const mcp = await connectHttp(user.token, bounded.url);
    try {
      const { resources } = await mcp.listResources();
      const uris = resources.map((r) => r.uri);
      for (const id of ids) expect(uris).to.include(`gds://projects/${id}/main/file`);
    } finally {
      await mcp.close();
    }
  });
});
