/**
 * The gateway: express + openapi-backend, routed and validated from the one
 * OpenAPI document. Order per request: request id -> route -> authenticate (401)
 * -> rate limit (429) -> maintenance (503 for a request that could write while the
 * store is being backed up or restored) -> body parse (5 MiB: 413, bad JSON: 422) -> validate (422
 * array form) -> operation handler of the owning service -> present. The body is
 * read only once the caller is known: a bad credential is the 401 whatever
 * the body, and a bad body from a known key is counted and carries the
 * X-RateLimit headers like any authenticated answer. Every error goes through
 * errorMiddleware.
 */
import express, { Express, NextFunction as Next, Request, Response, Router } from 'express';
import { jsonApiApp } from '../../shared/http/jsonApiApp';
import type { ErrorObject } from 'ajv';
import { Context, Operation as ApiOperation } from 'openapi-backend';
import {
  DomainError,
  NotFoundError,
  RequestValidationError,
  UnauthenticatedError,
} from '../../shared/errors/domainErrors';
import type { Logger } from '../../shared/logging/logger';
import { sendJson, sendStreamed } from '../../shared/http/responseBody';
import type { OperationResult, OperationTable } from '../../shared/http/operation';
import type { Authenticator } from '../identity';
import { errorMiddleware } from '../../shared/http/errorResponse';
import { hangUpSignal } from '../../shared/http/hangUpSignal';
import { runForCaller } from '../../shared/neo4j/callerCancellation';
import { bodyParseErrors } from './bodyParseErrors';
import { cacheRouting } from './cachedRouting';
import { InFlightLimit } from './inFlightLimit';
import { UnknownKeyLimit } from './unknownKeyLimit';
import { exceedsJsonDepth, JsonTooDeepError } from './jsonDepth';
import { RateLimits, RateLimitState, setRateLimitHeaders } from './rateLimits';
import { RequestObserver, requestContext } from './requestContext';
import { validationIssues } from './validationIssues';
import {
  CheckedRequest,
  initOpenApiBackend,
  openApiBackend,
  operationChecker,
} from './operationRequest';
import { startEarly } from '../../shared/async/promises';
import { HandlerRequest, Parsed } from './handlerRequest';
import { nameRequestSpan } from '../../shared/telemetry/telemetry';

export interface GatewayOptions {
  definitionPath: string;
  logger: Logger;
  authenticator: Authenticator;
  rateLimits: RateLimits;
  operations: OperationTable;
  maxBodyBytes: number;
  /** Requests of one key served at once by this process; more answer 429 (default 16). */
  maxInFlightPerKey?: number;
  /**
   * The proxies whose X-Forwarded-For is believed for the caller's address (express's
   * `trust proxy`: addresses, CIDRs, loopback...; default loopback).
   */
  trustedProxies?: string[];
  /** Lookups of unknown keys per address; shared with other routes that authenticate (/mcp). */
  unknownKeys?: UnknownKeyLimit;
  /** Told once per answered request (metrics). */
  observeRequest?: RequestObserver;
  /** Routes outside the API (/metrics, /docs), served before the OpenAPI router. */
  plainRoutes?: Router;
  /** Refuses requests that could write while an operator has the store in maintenance (503). */
  maintenance?: { admitWrite(): Promise<void> };
  /** Told of each request refused for its key's requests in flight (metrics). */
  onInFlightRefused?: () => void;
}

type Operation = {
  operationId?: string;
  /** The path template in the OpenAPI document (`/v1/projects/{project_id}`). */
  path?: string;
  security?: unknown[];
  requestBody?: unknown;
  ['x-body-validation']?: string;
};

async function dispatch(
  operations: OperationTable,
  operationId: string,
  parsed: Parsed,
  req: Request,
  res: Response,
) {
  const handler = operations[operationId];
  if (!handler) throw new NotFoundError('route');
  // a caller who hangs up cancels the work done for it (its Neo4j transactions end)
  const signal = hangUpSignal(res);
  const result: OperationResult = await runForCaller(signal, () =>
    handler(new HandlerRequest(operationId, parsed, req, signal)),
  );
  if (result.headers) res.set(result.headers);
  if (result.stream) {
    // a stream is JSON unless its operation says otherwise (Server-Sent Events)
    res.status(result.status);
    if (!res.get('Content-Type')) res.type('application/json');
    await sendStreamed(res, result.stream, req.gateway.log);
  } else if (result.body === undefined) res.status(result.status).end();
  else sendJson(res, result.status, result.body);
}

export async function createGateway(options: GatewayOptions): Promise<Express> {
  const api = openApiBackend(options.definitionPath);
  const inFlight = new InFlightLimit(options.maxInFlightPerKey ?? 16, options.onInFlightRefused);
  const unknownKeys =
    options.unknownKeys ?? new UnknownKeyLimit(options.rateLimits.perMinute('anon'));
  const addressGuard = {
    unknownKeys,
    chargeAnonymous: (address: string) => options.rateLimits.consume('anon', address),
  };
  /**
   * Authentication (401, counted in the caller's address bucket), the key's bucket
   * (429) and the key's requests in flight (429).
   */
  async function admit(req: Request, res: Response): Promise<void> {
    const bucket = RateLimits.bucketFor(req.method);
    // A key this process has cached is counted in its bucket while its revocation is
    // checked: when either needs Redis (a lease to claim, an epoch the feed has not
    // confirmed lately) the two go out together instead of in turn. The 401 of a
    // credential that fails still comes first, and is counted in the address bucket.
    let counted: { keyId: string; state: Promise<RateLimitState> } | undefined;
    req.gateway.principal = await options.authenticator.admit(
      req.header('authorization'),
      () => req.ip ?? 'unknown',
      addressGuard,
      (keyId) => {
        // awaited below, unless authentication fails first
        counted = { keyId, state: startEarly(options.rateLimits.consume(bucket, keyId)) };
      },
    );
    const { keyId } = req.gateway.principal;
    const state = await (counted?.keyId === keyId
      ? counted.state
      : options.rateLimits.consume(bucket, keyId));
    enter(res, keyId, state);
  }

  /** A counted caller: its bucket's headers on the answer and a slot in flight (429). */
  function enter(res: Response, keyId: string, state: RateLimitState) {
    setRateLimitHeaders(res, state);
    inFlight.enter(keyId, res, state);
  }

  /**
   * admit(), answered without waiting where this process can (most requests of a busy
   * key): a cached key whose revocation check needs no Redis round trip is authenticated
   * at once, and counted at once from a lease of its bucket with points in hand.
   * Undefined when nothing is left to wait for; throws the 429s of a key so counted.
   */
  function admitSoon(req: Request, res: Response): Promise<void> | undefined {
    const principal = options.authenticator.cachedPrincipal(req.headers.authorization);
    if (!principal) return admit(req, res);
    req.gateway.principal = principal;
    const bucket = RateLimits.bucketFor(req.method);
    const now = options.rateLimits.consumeNow(bucket, principal.keyId);
    if (!now)
      return options.rateLimits
        .consume(bucket, principal.keyId)
        .then((state) => enter(res, principal.keyId, state));
    enter(res, principal.keyId, now);
    return undefined;
  }

  /**
   * admitSoon(), then the maintenance check of a request that could write (the write
   * bucket's methods): undefined when nothing waits.
   */
  function admitted(req: Request, res: Response): Promise<void> | undefined {
    const counting = admitSoon(req, res);
    const maintenance = RateLimits.bucketFor(req.method) === 'write' && options.maintenance;
    if (!maintenance) return counting;
    return counting ? counting.then(() => maintenance.admitWrite()) : maintenance.admitWrite();
  }

  // admit() has already authenticated every secured request before its body was read
  api.registerSecurityHandler('bearerAuth', async (_c, req: Request) => {
    if (!req.gateway.principal) throw new UnauthenticatedError();
    return req.gateway.principal;
  });
  api.register({
    unauthorizedHandler: async () => {
      throw new UnauthenticatedError();
    },
    postSecurityHandler: async (c: Context, req: Request) => {
      req.gateway.operationId = c.operation?.operationId;
    },
    validationFail: async (c: Context, req: Request, res: Response) =>
      validationFailed(c.operation as Operation, c.validation.errors ?? [], c.request, req, res),
    notFound: async () => {
      throw new NotFoundError('route');
    },
    methodNotAllowed: async (_c: Context, _req: Request, res: Response) => {
      res
        .status(405)
        .json({ detail: { code: 'method_not_allowed', message: 'method not allowed' } });
    },
  });
  /**
   * A request the schema refuses: the 422 array form, except that the body of an
   * operation whose body the domain judges (x-body-validation: domain) is left to its handler.
   */
  async function validationFailed(
    operation: Operation,
    errors: ErrorObject[],
    parsed: Parsed,
    req: Request,
    res: Response,
  ) {
    if (operation['x-body-validation'] === 'domain') {
      errors = errors.filter(
        (e) => !e.instancePath.startsWith('/requestBody') && e.schemaPath !== '#/requestBody',
      );
      if (errors.length === 0)
        return dispatch(options.operations, operation.operationId as string, parsed, req, res);
    }
    throw new RequestValidationError(validationIssues(errors));
  }
  for (const operationId of Object.keys(options.operations)) {
    api.register(operationId, (c: Context, req: Request, res: Response) =>
      dispatch(options.operations, operationId, c.request, req, res),
    );
  }
  await initOpenApiBackend(api);
  cacheRouting(api.router);

  // routed requests are checked here with the request parsed once (see operationRequest.ts)
  const checkOperation = operationChecker(api);
  async function answerChecked(
    operation: Operation,
    checked: CheckedRequest,
    req: Request,
    res: Response,
  ): Promise<void> {
    if (checked.unauthorized) throw new UnauthenticatedError();
    if (checked.errors) return validationFailed(operation, checked.errors, checked, req, res);
    return dispatch(options.operations, operation.operationId as string, checked, req, res);
  }

  const parseJson = express.json({
    limit: options.maxBodyBytes,
    strict: false,
    type: ['application/json', 'application/*+json'],
    // refused before parsing: every recursive walk after the parser is safe from then on
    verify: (_req, _res, bytes) => {
      if (exceedsJsonDepth(bytes)) throw new JsonTooDeepError();
    },
  });
  const parseErrors = bodyParseErrors(options.maxBodyBytes);

  /** Validates the request against its operation and answers it. */
  function answer(operation: Operation | undefined, req: Request, res: Response, next: Next) {
    const request = {
      method: req.method,
      path: req.path,
      // express parses the query afresh at each read of req.query
      query: req.query as Record<string, string | string[]>,
      queryAsSent: () => req.query as Record<string, string | string[]>,
      headers: req.headers as Record<string, string | string[]>,
      body: req.body as unknown,
    };
    // Bodies the domain judges (x-body-validation: domain) are not schema-checked by
    // the gateway: the handler reads req.body; validation sees an empty object.
    if (operation?.['x-body-validation'] === 'domain') request.body = {};
    const checked =
      operation && options.operations[operation.operationId ?? '']
        ? checkOperation(operation as ApiOperation, request, req.gateway.principal !== undefined)
        : undefined;
    const answered = checked
      ? answerChecked(operation as Operation, checked, req, res)
      : api.handleRequest(request, req, res);
    // the key's slot stays taken until the work ends, even when its caller hung up first
    inFlight.holdUntilSettled(res, answered);
    answered.catch((error: unknown) => {
      if (!(error instanceof DomainError)) req.gateway.log.error({ err: error }, 'request failed');
      next(error);
    });
  }

  /** Reads the body of an operation that takes one (node discards any other body). */
  function readBody(operation: Operation | undefined, req: Request, res: Response, next: Next) {
    if (operation?.requestBody === undefined) return answer(operation, req, res, next);
    parseJson(req, res, (error?: unknown) =>
      error ? parseErrors(error, req, next) : answer(operation, req, res, next),
    );
  }

  const app = jsonApiApp();
  app.set('trust proxy', options.trustedProxies ?? ['loopback']);
  app.use(requestContext(options.logger, options.observeRequest));
  // Routes outside the API (/metrics, /docs, /app, /mcp); no API path is under them, and
  // no path of theirs is under /v1/, so API requests skip their matching.
  const plain = options.plainRoutes;
  if (plain)
    app.use((req, res, next) => (req.path.startsWith('/v1/') ? next() : plain(req, res, next)));
  // One step per request, in order: route (once), authenticate and rate limit, read the
  // body, validate, answer.
  app.use((req, res, next) => {
    // routed by method and path alone: express parses the query again at each read of
    // req.query, and the query is read once, where the request is validated
    const operation = api.router.matchOperation({
      method: req.method,
      path: req.path,
      headers: req.headers as Record<string, string | string[]>,
    }) as Operation | undefined;
    req.gateway.operationId = operation?.operationId;
    if (operation?.operationId && operation.path)
      nameRequestSpan(operation.operationId, operation.path);
    const open = Array.isArray(operation?.security) && operation.security.length === 0;
    if (!operation || open) return readBody(operation, req, res, next);
    let waiting: Promise<void> | undefined;
    try {
      waiting = admitted(req, res);
    } catch (error) {
      return next(error);
    }
    if (!waiting) return readBody(operation, req, res, next);
    waiting.then(() => readBody(operation, req, res, next), next);
  });
  app.use(errorMiddleware(options.logger));
  return app;
}
