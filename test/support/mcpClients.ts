/**
 * MCP clients for the integration tests: the SDK's own Client over Streamable
 * HTTP (the gateway's /mcp) and over stdio (`npm run -s graphctl -- mcp`, a real
 * child process), and a helper that reads a tool result the way an agent does.
 */
import { join } from 'node:path';
import { expect } from 'chai';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { currentHarness } from './harness';

const ROOT = join(__dirname, '..', '..');

export type Transport = 'http' | 'stdio';

export async function connectHttp(token: string | undefined, baseUrl?: string): Promise<Client> {
  const url = new URL('/mcp', baseUrl ?? currentHarness().service.url);
  const transport = new StreamableHTTPClientTransport(url, {
    requestInit: token === undefined ? {} : { headers: { Authorization: `Bearer ${token}` } },
  });
  const client = new Client({ name: 'graph-design-tests', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

/** graphctl mcp as an MCP client starts it; the key comes from GDS_TOKEN unless `viaFlag`. */
export async function connectStdio(token: string, viaFlag = false): Promise<Client> {
  const args = ['run', '-s', 'graphctl', '--', 'mcp', '--url', currentHarness().service.url];
  const transport = new StdioClientTransport({
    command: 'npm',
    args: viaFlag ? [...args, '--token', token] : args,
    // the SDK starts the child with a minimal environment (PATH, HOME, ...) plus this
    env: viaFlag ? {} : { GDS_TOKEN: token },
    cwd: ROOT,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'graph-design-tests', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

export async function connect(transport: Transport, token: string): Promise<Client> {
  return transport === 'http' ? connectHttp(token) : connectStdio(token);
}

export interface ToolOutcome {
  isError: boolean;
  status: number;
  /** The content's text parsed as JSON (the API body). */
  body: any;
  /** The content's text as it came. */
  text: string;
  structured: any;
  replayed: boolean;
}

/** Calls a tool and reads the result: one text content, the API body. */
export async function call(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<ToolOutcome> {
  const result = (await client.callTool({ name, arguments: args })) as {
    content: { type: string; text: string }[];
    isError?: boolean;
    structuredContent?: unknown;
    _meta?: Record<string, unknown>;
  };
  expect(result.content, `${name}: one text content`).to.have.length(1);
  expect(result.content[0].type).to.equal('text');
  const text = result.content[0].text;
  return {
    isError: result.isError === true,
    status: result._meta?.['gds/http_status'] as number,
    body: JSON.parse(text),
    text,
    structured: result.structuredContent,
    replayed: result._meta?.['gds/idempotent_replayed'] === true,
  };
}

/** Calls a tool that must succeed; returns the API body. */
export async function ok(client: Client, name: string, args: Record<string, unknown>) {
  const outcome = await call(client, name, args);
  expect(outcome.isError, `${name}: ${outcome.text}`).to.equal(false);
  expect(outcome.structured, `${name}: structured content is the body`).to.deep.equal(outcome.body);
  return outcome.body;
}
