import type { AddressInfo } from 'node:net';
import type { Server as HttpServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'chai';
import express from 'express';
import { parse } from 'yaml';
import { ApiCaller, SentRequest } from './apiCaller';
import { createMcpServer } from './mcpServer';
import type { OpenApiDocument } from './openApiSchemas';
import { answerMcpPost, singleRequestOf } from './singleRequestTransport';
import { toolDefinitions } from './toolDefinitions';

const DOC = parse(
  readFileSync(join(__dirname, '..', '..', 'openapi', 'graph-design-service.yaml'), 'utf8'),
) as OpenApiDocument;
const TOOLS = toolDefinitions(DOC);

/** What the API answers here: a top level of one node for any request (the tools' content is not the point). */
const TOP_LEVEL = {
  branch: { id: '3f1c2d4e-0000-4000-8000-000000000001', version: 4 },
  nodes: [],
  wires: [],
};

/** The branch whose reads never answer: they wait until their caller gives up. */
const HANGING = 'hanging';

function serverOver(sent: SentRequest[]) {
  const api = new ApiCaller({
    transport: async (request) => {
      sent.push(request);
      if (request.path.includes(HANGING))
        await new Promise((_resolve, reject) =>
          request.signal?.addEventListener('abort', () => reject(new Error('abandoned'))),
        );
      return { status: 200, text: JSON.stringify(TOP_LEVEL), header: () => undefined };
    },
  });
  return createMcpServer({ tools: TOOLS, api, version: 'test' });
}

interface Answer {
  status: number;
  contentType: string | null;
  body: unknown;
}

const JSON_AND_SSE = 'application/json, text/event-stream';
const HEADERS = { 'Content-Type': 'application/json', Accept: JSON_AND_SSE };

const callTopLevel = (id: number) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'get_top_level', arguments: { branch_id: TOP_LEVEL.branch.id } },
});

/** Each case: a POST, and whether the short way may answer it. */
const CASES: { name: string; headers: Record<string, string>; body: unknown; short: boolean }[] = [
  { name: 'a tool call', headers: HEADERS, body: callTopLevel(1), short: true },
  {
    name: 'a tool call with a Content-Type parameter and a protocol version',
    headers: {
      'Content-Type': 'application/json; charset=utf-8',
      Accept: JSON_AND_SSE,
      'MCP-Protocol-Version': LATEST_PROTOCOL_VERSION,
    },
    body: callTopLevel('a' as unknown as number),
    short: true,
  },
  {
    name: 'a listing',
    headers: HEADERS,
    body: { jsonrpc: '2.0', id: 2, method: 'tools/list' },
    short: true,
  },
  {
    name: 'an unknown tool (a JSON-RPC error)',
    headers: HEADERS,
    body: { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'nope' } },
    short: true,
  },
  {
    name: 'an unknown method',
    headers: HEADERS,
    body: { jsonrpc: '2.0', id: 4, method: 'nothing/here' },
    short: true,
  },
  {
    name: 'initialize',
    headers: HEADERS,
    body: {
      jsonrpc: '2.0',
      id: 5,
      method: 'initialize',
      params: {
        protocolVersion: LATEST_PROTOCOL_VERSION,
        capabilities: {},
        clientInfo: { name: 't', version: '1' },
      },
    },
    short: false,
  },
  {
    name: 'a batch',
    headers: HEADERS,
    body: [callTopLevel(6), { jsonrpc: '2.0', id: 7, method: 'tools/list' }],
    short: false,
  },
  {
    name: 'a notification alone',
    headers: HEADERS,
    body: { jsonrpc: '2.0', method: 'notifications/initialized' },
    short: false,
  },
  {
    name: 'an Accept without event streams (406)',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: callTopLevel(8),
    short: false,
  },
  {
    name: 'a JSON Content-Type other than application/json (415)',
    headers: { 'Content-Type': 'application/vnd.api+json', Accept: JSON_AND_SSE },
    body: callTopLevel(9),
    short: false,
  },
  {
    name: 'an unsupported protocol version (400)',
    headers: { ...HEADERS, 'MCP-Protocol-Version': '1999-01-01' },
    body: callTopLevel(10),
    short: false,
  },
  {
    name: 'a body that is not JSON-RPC (400)',
    headers: HEADERS,
    body: { id: 11, method: 'tools/list' },
    short: false,
  },
];

describe('MCP POST answered the short way (SingleRequestTransport) or by the SDK transport', () => {
  let http: HttpServer;
  let base = '';
  const sent: SentRequest[] = [];

  before(async () => {
    const app = express();
    app.use(express.json({ type: ['application/json', 'application/*+json'] }));
    // how /mcp answers: the short way when it may, else the SDK's transport
    app.post('/mcp', (req, res, next) => {
      answerMcpPost(serverOver(sent), req, res).catch(next);
    });
    // the SDK's transport alone, for every POST
    app.post('/sdk', (req, res, next) => {
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      serverOver(sent)
        .connect(transport)
        .then(() => transport.handleRequest(req, res, req.body))
        .catch(next);
    });
    http = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => http.once('listening', resolve));
    base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  });

  after(() => new Promise((resolve) => http.close(resolve)));

  async function post(path: string, headers: Record<string, string>, body: unknown) {
    const response = await fetch(`${base}${path}`, {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
    });
    const text = await response.text();
    return {
      status: response.status,
      contentType: response.headers.get('content-type'),
      body: text ? (JSON.parse(text) as unknown) : undefined,
    } satisfies Answer;
  }

  for (const { name, headers, body, short } of CASES) {
    it(`answers ${name} as the SDK transport does (${short ? 'the short way' : 'by the SDK'})`, async () => {
      const lower = Object.fromEntries(
        Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]),
      );
      expect(singleRequestOf(lower, body) !== undefined, 'the way taken').to.equal(short);
      const [ours, sdk] = [await post('/mcp', headers, body), await post('/sdk', headers, body)];
      expect(ours).to.deep.equal(sdk);
    });
  }

  /** Polls `check` every 10 ms for up to 2 s. */
  async function eventually(what: string, check: () => boolean) {
    for (let waited = 0; !check(); waited += 10) {
      if (waited > 2000) throw new Error(`not seen: ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  const hangingCall = (id: number) => ({
    ...callTopLevel(id),
    params: { name: 'get_top_level', arguments: { branch_id: HANGING } },
  });

  for (const [way, body] of [
    ['the short way', hangingCall(20)],
    ['by the SDK (a batch)', [hangingCall(21)]],
  ] as const) {
    it(`cancels the API request of an agent that hangs up before its answer (${way})`, async () => {
      const before = sent.length;
      const agent = new AbortController();
      const posted = fetch(`${base}/mcp`, {
        method: 'POST',
        headers: HEADERS,
        body: JSON.stringify(body),
        signal: agent.signal,
      }).catch(() => 'hung up');
      await eventually('the API request', () => sent.length > before);
      const request = sent[before];
      expect(request.signal?.aborted).to.equal(false);
      agent.abort();
      expect(await posted).to.equal('hung up');
      await eventually('the API request cancelled', () => request.signal?.aborted === true);
    });
  }

  it('leaves the API request of an answer sent whole alone', async () => {
    const before = sent.length;
    expect((await post('/mcp', HEADERS, callTopLevel(22))).status).to.equal(200);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(sent[before].signal?.aborted).to.equal(false);
  });

  it("gives the tool call's result as the SDK does: the API body as text and as structured content", async () => {
    const answer = await post('/mcp', HEADERS, callTopLevel(12));
    expect(answer.status).to.equal(200);
    const { result } = answer.body as {
      result: { content: { text: string }[]; structuredContent: unknown };
    };
    expect(JSON.parse(result.content[0].text)).to.deep.equal(TOP_LEVEL);
    expect(result.structuredContent).to.deep.equal(TOP_LEVEL);
    expect(sent.at(-1)).to.include({
      method: 'GET',
      path: `/v1/branches/${TOP_LEVEL.branch.id}/top-level`,
    });
  });
});
