/**
 * Streamable HTTP transport at /mcp on the gateway (stateless: no session, one
 * MCP server per request, JSON answers rather than SSE streams; a POST of one request
 * is answered the short way, singleRequestTransport.ts).
 *
 * The request must carry the same bearer key as the HTTP routes: an unknown or
 * missing key is the same 401 body (with WWW-Authenticate), counted in the
 * caller's address bucket like any unauthenticated call. Each tool call, resource
 * read and resource listing is then an API request with that key, answered by the
 * gateway's own request pipeline in this process (apiTransports.ts), so scopes,
 * project allowlists, roles, rate limits (the key's read bucket for GET operations,
 * write bucket for the others), requests in flight and error bodies are exactly those
 * of the HTTP routes. Messages that touch no data (initialize, tools/list, prompts)
 * count against no bucket. An agent that hangs up before its answer cancels the API
 * requests made for it (answerMcpPost).
 *
 * Before anything else, a request whose Origin is present and not allowed is
 * refused 403 (DNS-rebinding protection, originCheck.ts).
 */
import { readFileSync } from 'node:fs';
import express, { NextFunction, Request, Response, Router } from 'express';
import { PayloadTooLargeError } from '../../shared/errors/domainErrors';
import type { Logger } from '../../shared/logging/logger';
import type { Authenticator } from '../identity';
import type { RequestListener } from '../../shared/http/injectRequest';
import { ApiCaller } from './apiCaller';
import { inProcessTransport } from './apiTransports';
import { createMcpServer } from './mcpServer';
import { mcpOriginAllowed } from './originCheck';
import { answerMcpPost } from './singleRequestTransport';
import { parse } from 'yaml';
import type { OpenApiDocument } from './openApiSchemas';
import { catalogProblems, ToolDefinition, toolDefinitions } from './toolDefinitions';

export const MCP_PATH = '/mcp';
const ENVELOPE_BYTES = 64 * 1024;

export interface McpRouterOptions {
  tools: ToolDefinition[];
  /** The gateway's own Authenticator (only admit is used). */
  authenticator: Pick<Authenticator, 'admit'>;
  /**
   * The gateway's budget of unknown-key lookups per address (structural), so that /mcp
   * is no way around it: past it, uncached keys are looked up gathered, not one by one.
   */
  unknownKeys?: { spent(address: string): boolean; recordMiss(address: string): void };
  /** The gateway's RateLimits: an unauthenticated attempt is counted in the anon bucket. */
  rateLimits: { consume(bucket: 'anon', key: string): Promise<unknown> };
  /** The gateway's request listener, which answers the tools' API calls; known once built. */
  gateway: () => RequestListener;
  maxBodyBytes: number;
  version: string;
  /** Web origins allowed besides the loopback ones (config.mcp.allowedOrigins). */
  allowedOrigins: readonly string[];
}

function jsonRpcError(res: Response, status: number, code: number, message: string): void {
  res.status(status).json({ jsonrpc: '2.0', error: { code, message }, id: null });
}

export function mcpRouter(options: McpRouterOptions): Router {
  const router = Router();
  // room for the JSON-RPC envelope around a body at the API's limit, which the API
  // itself then enforces (its 413 body becomes the tool error)
  const limit = options.maxBodyBytes + ENVELOPE_BYTES;
  const parseJson = express.json({
    limit,
    type: ['application/json', 'application/*+json'],
  });

  const addressGuard = {
    unknownKeys: options.unknownKeys,
    chargeAnonymous: (address: string) => options.rateLimits.consume('anon', address),
  };
  async function admit(req: Request): Promise<void> {
    await options.authenticator.admit(
      req.header('authorization'),
      () => req.ip ?? 'unknown',
      addressGuard,
    );
  }

  async function serve(req: Request, res: Response): Promise<void> {
    // from the agent's own address, with its X-Forwarded-For: the same client address
    const forwardedFor = req.header('x-forwarded-for');
    const api = new ApiCaller({
      transport: inProcessTransport(options.gateway(), req.socket.remoteAddress ?? ''),
      headers: {
        Authorization: req.header('authorization') ?? '',
        'X-Request-Id': req.gateway.requestId,
        ...(forwardedFor !== undefined ? { 'X-Forwarded-For': forwardedFor } : {}),
      },
    });
    const server = createMcpServer({ tools: options.tools, api, version: options.version });
    await answerMcpPost(server, req, res);
  }

  router.all(MCP_PATH, (req: Request, res: Response, next: NextFunction) => {
    req.gateway.operationId = 'mcp';
    if (!mcpOriginAllowed(req.header('origin'), options.allowedOrigins))
      return jsonRpcError(res, 403, -32000, 'Forbidden: this Origin may not use this MCP endpoint');
    admit(req).then(() => {
      // stateless: no server-initiated stream (GET) and no session to end (DELETE)
      if (req.method !== 'POST') {
        res.set('Allow', 'POST');
        return jsonRpcError(res, 405, -32000, 'Method not allowed: this MCP endpoint takes POST');
      }
      parseJson(req, res, (error?: unknown) => {
        const type = (error as { type?: string } | undefined)?.type;
        if (type === 'entity.too.large') return next(new PayloadTooLargeError(limit));
        if (error)
          return jsonRpcError(res, 400, -32700, `Parse error: ${(error as Error).message}`);
        serve(req, res).catch(next);
      });
    }, next);
  });
  return router;
}

/**
 * The /mcp routes of a gateway, with the tools generated from the OpenAPI document
 * it serves. An operation the tool catalog does not classify is logged (and left
 * out) rather than stopping the gateway; the catalog test fails on it.
 */
export function gatewayMcpRoutes(
  options: Omit<McpRouterOptions, 'tools'> & { definitionPath: string; logger: Logger },
): Router {
  const doc = parse(readFileSync(options.definitionPath, 'utf8')) as OpenApiDocument;
  const problems = catalogProblems(doc);
  if (problems.length > 0) options.logger.warn({ problems }, 'MCP tool catalog and OpenAPI differ');
  return mcpRouter({ ...options, tools: toolDefinitions(doc) });
}
