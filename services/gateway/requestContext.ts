/** Request id (echoed as X-Request-Id), a child logger per request, and an access log line. */
import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import { accessLog, type Logger } from '../../shared/logging/logger';
import type { Principal } from '../../shared/http/principal';

/**
 * What the gateway knows of a request as it goes. Its logger (carrying the request id)
 * is made on first use: most requests log only their access line, written by the root
 * logger with the id among its fields, and a child per request was a measurable share
 * of the gateway's fixed cost.
 */
export class GatewayRequestState {
  principal?: Principal;
  operationId?: string;
  private child?: Logger;

  constructor(
    readonly requestId: string,
    private readonly logger: Logger,
  ) {}

  /** The request's logger, carrying its id. */
  get log(): Logger {
    this.child ??= this.logger.child({ reqId: this.requestId });
    return this.child;
  }
}

declare module 'express-serve-static-core' {
  interface Request {
    gateway: GatewayRequestState;
  }
}

const VALID_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Told once per answered request (metrics). */
export type RequestObserver = (request: {
  operationId: string | undefined;
  method: string;
  status: number;
  seconds: number;
}) => void;

export function requestContext(logger: Logger, observe?: RequestObserver): RequestHandler {
  const access = accessLog(logger);
  return (req, res, next) => {
    const incoming = req.header('x-request-id');
    const requestId = incoming && VALID_ID.test(incoming) ? incoming : randomUUID();
    req.gateway = new GatewayRequestState(requestId, logger);
    res.setHeader('X-Request-Id', requestId);
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      observe?.({
        operationId: req.gateway.operationId,
        method: req.method,
        status: res.statusCode,
        seconds: ms / 1000,
      });
      access({
        reqId: requestId,
        method: req.method,
        path: req.path,
        operationId: req.gateway.operationId,
        status: res.statusCode,
        ms: Math.round(ms * 10) / 10,
        userId: req.gateway.principal?.userId,
      });
    });
    next();
  };
}
