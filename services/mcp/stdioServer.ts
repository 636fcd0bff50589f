/**
 * The stdio transport, for MCP clients that start the server as a child process
 * (`graphctl mcp --url ... --token ...`). The tools are generated from the
 * OpenAPI document the service at --url serves (/openapi.json), so they match
 * the running service even when this checkout is older or newer; stdout carries
 * only MCP messages.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { ApiCaller } from './apiCaller';
import { fetchTransport } from './apiTransports';
import { createMcpServer } from './mcpServer';
import type { OpenApiDocument } from './openApiSchemas';
import { toolDefinitions } from './toolDefinitions';

export interface StdioOptions {
  /** Base URL of the service, e.g. http://127.0.0.1:8080. */
  url: string;
  token: string;
  version: string;
}

export class ServiceDocumentError extends Error {}

async function fetchDocument(url: string): Promise<OpenApiDocument> {
  const address = `${url.replace(/\/+$/, '')}/openapi.json`;
  let response: globalThis.Response;
  try {
    response = await fetch(address, { headers: { Accept: 'application/json' } });
  } catch (error) {
    throw new ServiceDocumentError(`cannot reach ${address}: ${(error as Error).message}`);
  }
  if (!response.ok) throw new ServiceDocumentError(`${address} answered ${response.status}`);
  return (await response.json()) as OpenApiDocument;
}

/** Serves MCP on stdin/stdout until the client closes the stream. */
export async function runStdioServer(options: StdioOptions): Promise<void> {
  const tools = toolDefinitions(await fetchDocument(options.url));
  const api = new ApiCaller({ transport: fetchTransport(options.url), token: options.token });
  const server = createMcpServer({ tools, api, version: options.version });
  const transport = new StdioServerTransport();
  await server.connect(transport);
  // When stdin ends, requests already read are still answered before closing.
  let pending = 0;
  let ended = false;
  let finish: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => {
    finish = resolve;
  });
  const receive = transport.onmessage;
  transport.onmessage = (message: JSONRPCMessage) => {
    if ('method' in message && 'id' in message) pending += 1;
    receive?.(message);
  };
  const send = transport.send.bind(transport);
  transport.send = async (message: JSONRPCMessage) => {
    await send(message);
    if (!('method' in message) && 'id' in message) {
      pending -= 1;
      if (ended && pending <= 0) finish();
    }
  };
  const onclose = transport.onclose;
  transport.onclose = () => {
    onclose?.();
    finish();
  };
  process.stdin.once('end', () => {
    ended = true;
    if (pending <= 0) finish();
  });
  await closed;
  await server.close();
}
