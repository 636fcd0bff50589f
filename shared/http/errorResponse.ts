/**
 * The one place that maps typed domain errors to HTTP statuses and writes the
 * `{"detail": ...}` bodies. Anything unexpected is logged and answered 500 without internals.
 */
import type { ErrorRequestHandler } from 'express';
import { DomainError, DomainErrorKind } from '../errors/domainErrors';
import type { Logger } from '../logging/logger';

const STATUS: Record<DomainErrorKind, number> = {
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  invalid: 422,
  request_validation: 422,
  delta: 422,
  rate_limited: 429,
  unavailable: 503,
};

export function errorBody(error: DomainError): {
  status: number;
  body: unknown;
  headers: Record<string, string>;
} {
  const status = STATUS[error.kind];
  const headers: Record<string, string> = {};
  let detail: unknown;
  switch (error.kind) {
    case 'unauthenticated':
      headers['WWW-Authenticate'] = 'Bearer';
      detail = 'not_authenticated';
      break;
    case 'rate_limited': {
      detail = 'rate_limited';
      const window = (error as DomainError & { window?: Record<string, number> }).window;
      if (window) {
        headers['X-RateLimit-Limit'] = String(window.limit);
        headers['X-RateLimit-Remaining'] = String(window.remaining);
        headers['X-RateLimit-Reset'] = String(window.reset);
      }
      break;
    }
    case 'request_validation':
      detail = (error as DomainError & { issues: unknown }).issues;
      break;
    case 'delta':
      detail = (error as DomainError & { envelope: unknown }).envelope;
      break;
    default:
      detail = { code: error.code, message: error.message, ...error.extra };
  }
  const retryAfter = (error as { retryAfterSeconds?: number }).retryAfterSeconds;
  if (retryAfter !== undefined) headers['Retry-After'] = String(retryAfter);
  return { status, body: { detail }, headers };
}

export function errorMiddleware(logger: Logger): ErrorRequestHandler {
  return (error, req, res, _next) => {
    const log = (req as { log?: Logger }).log ?? logger;
    if (error instanceof DomainError) {
      const { status, body, headers } = errorBody(error);
      if (status >= 500) log.warn({ code: error.code }, error.message);
      res.status(status).set(headers).json(body);
      return;
    }
    log.error({ err: error }, 'unhandled error');
    if (res.headersSent) return;
    res.status(500).json({ detail: { code: 'internal_error', message: 'internal error' } });
  };
}
