/**
 * How /mcp answers one POST: the common message in short, everything else by the SDK.
 *
 * Nearly every POST an agent sends is one JSON-RPC request (a tool call, a resource
 * read, a listing), which the Streamable HTTP transport in JSON response mode answers
 * with that request's one JSON-RPC response as the body. SingleRequestTransport
 * answers exactly that case, writing the response to the node response itself. The
 * SDK's transport (StreamableHTTPServerTransport) answers every other POST as the
 * protocol says: initialize, batches, notifications and responses, and each request
 * it refuses (an Accept without both JSON and event streams: 406; a Content-Type that
 * is not JSON: 415; an unsupported MCP-Protocol-Version: 400; a body that is not
 * JSON-RPC: 400). A POST takes the short way only when none of those apply, so both
 * ways give the same answer (singleRequestTransport.spec.ts compares them); the short
 * way skips the SDK's conversion of the request to a web Request and of its answer
 * to a web Response and back, about 0.2 ms of a tool call whose answer is 45 KB.
 */
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  isInitializeRequest,
  isJSONRPCRequest,
  JSONRPCMessage,
  JSONRPCMessageSchema,
  JSONRPCRequest,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/sdk/types.js';
import type { Request, Response } from 'express';
import { mediaTypeOf } from '../../shared/http/mediaType';

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/**
 * The one JSON-RPC request a POST carries when the short way may answer it (see the
 * file comment), else undefined.
 */
export function singleRequestOf(
  headers: IncomingHttpHeaders,
  body: unknown,
): JSONRPCRequest | undefined {
  const accept = header(headers, 'accept');
  if (!accept?.includes('application/json') || !accept.includes('text/event-stream')) return;
  if (mediaTypeOf(headers['content-type']) !== 'application/json') return;
  const version = header(headers, 'mcp-protocol-version');
  if (version !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) return;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return;
  const parsed = JSONRPCMessageSchema.safeParse(body);
  if (!parsed.success) return;
  const message: JSONRPCMessage = parsed.data;
  if (!isJSONRPCRequest(message) || isInitializeRequest(message)) return;
  return message;
}

/** A transport for one request: its response is the answer's body; nothing else is sent. */
export class SingleRequestTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];
  private answered: () => void = () => undefined;

  constructor(private readonly res: ServerResponse) {}

  async start(): Promise<void> {}

  /** Hands `request` to the server and resolves once its response is written (or the transport closed). */
  answer(request: JSONRPCRequest, headers: IncomingHttpHeaders): Promise<void> {
    const done = new Promise<void>((resolve) => {
      this.answered = resolve;
    });
    this.onmessage?.(request, { requestInfo: { headers } });
    return done;
  }

  async send(message: JSONRPCMessage): Promise<void> {
    // notifications about the request (progress, logs) have no place in a JSON answer
    if ('method' in message || !('id' in message)) return;
    const text = JSON.stringify(message);
    this.res.writeHead(200, {
      'Content-Type': 'application/json',
      'Content-Length': Buffer.byteLength(text),
    });
    this.res.end(text);
    this.answered();
  }

  async close(): Promise<void> {
    this.answered();
    this.onclose?.();
  }
}

/**
 * Answers one POST to /mcp (its body already parsed) with `server`, the short way when
 * it may. An agent that hangs up before its answer: closing the server aborts its
 * handlers, and with them the API requests they made (their signal). Once the answer is
 * sent whole, the server and transport of this one POST hold nothing more (no timer, no
 * stream) and are left to the collector: closing them would only build the "connection
 * closed" error handed to requests still waiting, of which there are none.
 */
export async function answerMcpPost(server: Server, req: Request, res: Response): Promise<void> {
  res.on('close', () => {
    if (!res.writableFinished) void server.close();
  });
  const request = singleRequestOf(req.headers, req.body);
  if (request) {
    const transport = new SingleRequestTransport(res);
    await server.connect(transport);
    return transport.answer(request, req.headers);
  }
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  await server.connect(transport);
  await transport.handleRequest(req, res, req.body);
}
