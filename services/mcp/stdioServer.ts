/**
 * The stdio transport, for MCP clients that start the server as a child process
 * (`graphctl mcp --url ... --token ...`). The tools are generated from the
 * OpenAPI document the service at --url serves (/openapi.json), so they match
 * the running service even when this checkout is older or newer; stdout carries
 * only MCP messages.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { ApiCaller } from './apiCaller';
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
  const api = new ApiCaller({ baseUrl: options.url, token: options.token });
  const server = createMcpServer({ tools, api, version: options.version });
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
  });
  await server.connect(transport);
  await closed;
  await server.close();
}
