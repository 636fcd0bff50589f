/**
 * The gateway: express + openapi-backend, routed and validated from the one
 * OpenAPI document. Order per request: request id -> body parse (5 MiB) -> route
 * -> authenticate (401) -> rate limit (429) -> validate (422 array form) ->
 * operation handler of the owning service -> present. Every error goes through
 * errorMiddleware.
 */
import addFormats from 'ajv-formats';
import express, { Express, NextFunction, Request, Response, Router } from 'express';
import { Context, OpenAPIBackend } from 'openapi-backend';
import {
  DomainError,
  NotFoundError,
  PayloadTooLargeError,
  RequestValidationError,
  ServiceUnavailableError,
  UnauthenticatedError,
} from '../../shared/errors/domainErrors';
import type { Logger } from '../../shared/logging/logger';
import type { OperationResult, OperationTable } from '../../shared/http/operation';
import type { Authenticator } from '../identity/authenticator';
import { errorMiddleware } from '../../shared/http/errorResponse';
import { RateLimits, rateLimitHeaders, RateLimitState } from './rateLimits';
import { RequestObserver, requestContext } from './requestContext';
import { validationIssues } from './validationIssues';

export interface GatewayOptions {
  definitionPath: string;
  logger: Logger;
  authenticator: Authenticator;
  rateLimits: RateLimits;
  operations: OperationTable;
  maxBodyBytes: number;
  /** Told once per answered request (metrics). */
  observeRequest?: RequestObserver;
  /** Routes outside the API (/metrics, /docs), served before the OpenAPI router. */
  plainRoutes?: Router;
}

type Operation = { operationId?: string; ['x-body-validation']?: string };

function bodyParseErrors(maxBodyBytes: number) {
  return (error: unknown, _req: Request, _res: Response, next: NextFunction) => {
    const type = (error as { type?: string }).type;
    if (type === 'entity.too.large') return next(new PayloadTooLargeError(maxBodyBytes));
    if (
      (type && type.startsWith('entity.')) ||
      type === 'charset.unsupported' ||
      type === 'encoding.unsupported'
    ) {
      return next(
        new RequestValidationError([
          {
            loc: ['body'],
            msg: 'JSON decode error',
            type: 'json_invalid',
            ctx: { error: (error as Error).message },
          },
        ]),
      );
    }
    return next(error);
  };
}

async function dispatch(operations: OperationTable, c: Context, req: Request, res: Response) {
  const operationId = c.operation.operationId as string;
  const handler = operations[operationId];
  if (!handler) throw new NotFoundError('route');
  const result: OperationResult = await handler({
    operationId,
    params: (c.request.params ?? {}) as Record<string, string>,
    query: (c.request.query ?? {}) as Record<string, unknown>,
    body: req.body,
    headers: req.headers as Record<string, string | undefined>,
    principal: req.gateway.principal as NonNullable<typeof req.gateway.principal>,
    requestId: req.gateway.requestId,
    log: req.gateway.log,
  });
  if (result.headers) res.set(result.headers);
  if (result.body === undefined) res.status(result.status).end();
  else res.status(result.status).json(result.body);
}

export async function createGateway(options: GatewayOptions): Promise<Express> {
  const api = new OpenAPIBackend({
    definition: options.definitionPath,
    quick: false,
    strict: true,
    coerceTypes: true,
    validate: true,
    customizeAjv: (ajv) => {
      addFormats(ajv);
      return ajv;
    },
  });
  api.registerSecurityHandler('bearerAuth', async (_c, req: Request) => {
    const principal = await options.authenticator.authenticate(req.header('authorization'));
    req.gateway.principal = principal;
    return principal;
  });
  api.register({
    unauthorizedHandler: async (c: Context, req: Request) => {
      const failure = (c.security?.bearerAuth as { error?: unknown } | undefined)?.error;
      if (failure instanceof ServiceUnavailableError) throw failure;
      await options.rateLimits.consume('anon', req.ip ?? 'unknown');
      throw new UnauthenticatedError();
    },
    postSecurityHandler: async (c: Context, req: Request, res: Response) => {
      req.gateway.operationId = c.operation?.operationId;
      const principal = req.gateway.principal;
      if (!c.security?.authorized || !principal) return;
      try {
        const state = await options.rateLimits.consume(
          RateLimits.bucketFor(req.method),
          principal.keyId,
        );
        res.set(rateLimitHeaders(state));
      } catch (error) {
        const state = (error as { state?: RateLimitState }).state;
        if (state) res.set(rateLimitHeaders(state));
        throw error;
      }
    },
    validationFail: async (c: Context, req: Request, res: Response) => {
      const operation = c.operation as Operation;
      let errors = c.validation.errors ?? [];
      if (operation['x-body-validation'] === 'domain') {
        errors = errors.filter(
          (e) => !e.instancePath.startsWith('/requestBody') && e.schemaPath !== '#/requestBody',
        );
        if (errors.length === 0) return dispatch(options.operations, c, req, res);
      }
      throw new RequestValidationError(validationIssues(errors));
    },
    notFound: async () => {
      throw new NotFoundError('route');
    },
    methodNotAllowed: async (_c: Context, _req: Request, res: Response) => {
      res
        .status(405)
        .json({ detail: { code: 'method_not_allowed', message: 'method not allowed' } });
    },
  });
  for (const operationId of Object.keys(options.operations)) {
    api.register(operationId, (c: Context, req: Request, res: Response) =>
      dispatch(options.operations, c, req, res),
    );
  }
  await api.init();

  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback');
  app.use(requestContext(options.logger, options.observeRequest));
  if (options.plainRoutes) app.use(options.plainRoutes);
  app.use(
    express.json({
      limit: options.maxBodyBytes,
      strict: false,
      type: ['application/json', 'application/*+json'],
    }),
  );
  app.use(bodyParseErrors(options.maxBodyBytes));
  app.use((req, res, next) => {
    const request = {
      method: req.method,
      path: req.path,
      query: req.query as Record<string, string | string[]>,
      headers: req.headers as Record<string, string | string[]>,
      body: req.body as unknown,
    };
    // Bodies the domain judges (x-body-validation: domain) are not schema-checked by
    // the gateway: the handler reads req.body; validation sees an empty object.
    const operation = api.router.matchOperation(request) as Operation | undefined;
    req.gateway.operationId = operation?.operationId;
    if (operation?.['x-body-validation'] === 'domain') request.body = {};
    api.handleRequest(request, req, res).catch((error: unknown) => {
      if (!(error instanceof DomainError)) req.gateway.log.error({ err: error }, 'request failed');
      next(error);
    });
  });
  app.use(errorMiddleware(options.logger));
  return app;
}
