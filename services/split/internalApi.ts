/**
 * The HTTP face of one service process in separate-process mode: the gateway
 * calls POST /internal/v1/{operationId} with the request parts it validated and a
 * signed identity (identityToken.ts); the process runs the operation handler of
 * its own table and answers an envelope {status, body, headers} that the gateway
 * relays as is. Domain errors become their error answers (the `detail`
 * envelope) here, exactly as in process. GET /healthz (alive) and /readyz (Neo4j
 * answers within 2 s) serve the probes; GET /metrics the process's Prometheus
 * metrics (its calls per operationId and status, and the latency of the Cypher it
 * runs).
 */
import { randomUUID } from 'node:crypto';
import express, { Express, NextFunction, Request, Response } from 'express';
import { jsonApiApp } from '../../shared/http/jsonApiApp';
import { DomainError } from '../../shared/errors/domainErrors';
import { errorBody } from '../../shared/http/errorResponse';
import { hangUpSignal } from '../../shared/http/hangUpSignal';
import { runForCaller } from '../../shared/neo4j/callerCancellation';
import type { OperationResult, OperationTable } from '../../shared/http/operation';
import { sendStreamed } from '../../shared/http/responseBody';
import { nameRequestSpan } from '../../shared/telemetry/telemetry';

/**
 * Set on an answer whose body is the operation's streamed body (OperationResult.stream)
 * rather than the JSON OperationResult: it carries the result's status and headers.
 */
export const STREAMED_RESULT_HEADER = 'x-streamed-result';
import type { Logger } from '../../shared/logging/logger';
import type { Executor } from '../../shared/neo4j/executor';
import { withinMs } from '../../shared/redis/queueConnection';
import type { ServiceMetrics } from '../platform';
import { bodyDigest, IDENTITY_HEADER, VerifiedIdentity, verifyIdentity } from './identityToken';
import type { UsedIdentities } from './usedIdentities';

export interface InternalCall {
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: unknown;
  headers: Record<string, string | undefined>;
}

export function internalApi(options: {
  service: string;
  operations: OperationTable;
  secret: string;
  executor: Executor;
  logger: Logger;
  maxBodyBytes: number;
  metrics: ServiceMetrics;
  /** Where the accepted identities' nonces are claimed (one call per token). */
  usedIdentities: UsedIdentities;
}): Express {
  const app = jsonApiApp();
  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok', service: options.service });
  });
  app.get('/metrics', (_req, res, next) => {
    options.metrics.render().then((text) => {
      res.status(200).type(options.metrics.contentType()).send(text);
    }, next);
  });
  app.get('/readyz', (_req, res) => {
    withinMs(2000, options.executor.verifyConnectivity(), 'neo4j readiness').then(
      () => res.json({ status: 'ok', service: options.service }),
      () => res.status(503).json({ status: 'unavailable', service: options.service }),
    );
  });
  // the digest of the bytes as received: the signed identity is bound to it
  const digests = new WeakMap<Request, string>();
  app.use(
    express.json({
      limit: options.maxBodyBytes * 2 + 65_536,
      verify: (req, _res, bytes) => {
        digests.set(req as Request, bodyDigest(bytes));
      },
    }),
  );
  app.post('/internal/v1/:operationId', (req, res) => {
    const operationId = String(req.params.operationId);
    const handler = options.operations[operationId];
    if (!handler) {
      res.status(404).json({ error: `${options.service} does not own ${operationId}` });
      return;
    }
    const identity = verifyIdentity(options.secret, req.header(IDENTITY_HEADER), operationId, {
      method: req.method,
      path: req.path,
      digest: digests.get(req) ?? bodyDigest(''),
    });
    if (!identity) {
      res.status(401).json({ error: 'missing or invalid identity' });
      return;
    }
    options.usedIdentities.claim(identity.nonce, identity.expiresAt).then(
      (first) => {
        if (first) return serve(req, res, operationId, identity);
        res.status(401).json({ error: 'identity already used' });
      },
      (error: unknown) => {
        // not known to be fresh: refused like any call the gateway cannot place (503)
        options.logger.warn({ err: (error as Error).message }, 'identity nonce not checked');
        res.status(503).json({ error: 'the identity could not be checked' });
      },
    );
  });

  function serve(req: Request, res: Response, operationId: string, identity: VerifiedIdentity) {
    const handler = options.operations[operationId];
    const call = req.body as InternalCall;
    const requestId = identity.requestId || randomUUID();
    const log = options.logger.child({ reqId: requestId, operationId });
    nameRequestSpan(operationId, req.path);
    const started = performance.now();
    const failed = (error: unknown): OperationResult => {
      if (error instanceof DomainError) return errorBody(error);
      log.error({ err: error }, 'operation failed');
      return {
        status: 500,
        body: { detail: { code: 'internal_error', message: 'internal error' } },
      };
    };
    // the gateway hangs up when its caller does: the work done for it is cancelled
    const signal = hangUpSignal(res);
    runForCaller(signal, () =>
      handler({
        operationId,
        params: call.params ?? {},
        query: call.query ?? {},
        body: call.body,
        headers: call.headers ?? {},
        principal: identity.principal,
        requestId,
        log,
        signal,
      }),
    )
      .catch(failed)
      .then(async (result) => {
        const ms = performance.now() - started;
        log.debug({ status: result.status, ms }, 'internal call');
        options.metrics.observeRequest({
          operationId,
          method: 'POST',
          status: result.status,
          seconds: ms / 1000,
        });
        if (!result.stream) {
          res.status(200).json(result);
          return;
        }
        // a streamed body goes as the response's own body, its status and headers ahead
        res
          .status(200)
          .type('application/json')
          .set(
            STREAMED_RESULT_HEADER,
            JSON.stringify({ status: result.status, headers: result.headers }),
          );
        try {
          await sendStreamed(res, result.stream, log);
        } catch (error) {
          // nothing was sent yet: the failure answers as any other
          res.removeHeader(STREAMED_RESULT_HEADER);
          res.status(200).json(failed(error));
        }
      });
  }
  // A call that cannot be read (malformed JSON, a body past the limit) or anything else
  // that escapes: a JSON answer without internals, never Express's HTML page with a stack.
  app.use((error: unknown, req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return next(error);
    const status = (error as { status?: number }).status;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      res.status(status).json({ error: 'the internal call could not be read' });
      return;
    }
    options.logger.error({ err: error, path: req.path }, 'internal call failed');
    res.status(500).json({ error: 'internal error' });
  });
  return app;
}
