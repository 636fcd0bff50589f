/**
 * The answer to a request body the JSON parser refused: 413 past the size limit, and a
 * 422 for a body that is not JSON, nests too deep, or could not be read at all (cut
 * short, a corrupt gzip stream). The 422 takes the form its operation documents, so a
 * caller of a route reads one error shape whatever went wrong.
 */
import type { NextFunction, Request } from 'express';
import {
  DomainError,
  InvalidInputError,
  PayloadTooLargeError,
  RequestValidationError,
} from '../../shared/errors/domainErrors';
import { deltaError } from '../graph';

/**
 * The three operations whose 422s use an object detail instead of HTTPValidationError's array
 * (createProject; applyDeltas and validateDeltas with the per-delta envelope), a body that does not
 * parse included, so a caller of those routes reads one error shape whatever went wrong.
 */
const OBJECT_FORM_422: Readonly<Record<string, (message: string) => DomainError>> = {
  createProject: (message) => new InvalidInputError('validation_error', message),
  applyDeltas: (message) => deltaError({ error: 'validation_error', field: 'body', message }),
  validateDeltas: (message) => deltaError({ error: 'validation_error', field: 'body', message }),
};

/** Why a body could not be read, for the 422 that answers it. */
function unreadableBody(error: unknown): string | undefined {
  const { type, status } = error as { type?: string; status?: number };
  const message = (error as Error).message;
  if (type === 'entity.too.deep') return message;
  if (
    (type && type.startsWith('entity.')) ||
    type === 'charset.unsupported' ||
    type === 'encoding.unsupported'
  )
    return `the body is not valid JSON: ${message}`;
  // a body cut short or longer than its Content-Length, a corrupt gzip or deflate stream
  if ((type && type.startsWith('request.')) || (typeof status === 'number' && status < 500))
    return `the body could not be read: ${message}`;
  return undefined;
}

/** The answer to a body the parser refused (only the parser's errors come here). */
export function bodyParseErrors(maxBodyBytes: number) {
  return (error: unknown, req: Request, next: NextFunction) => {
    const type = (error as { type?: string }).type;
    if (type === 'entity.too.large') return next(new PayloadTooLargeError(maxBodyBytes));
    const message = unreadableBody(error);
    if (message === undefined) return next(error);
    const objectForm = OBJECT_FORM_422[req.gateway.operationId ?? ''];
    if (objectForm) return next(objectForm(message));
    return next(
      new RequestValidationError([
        {
          loc: ['body'],
          msg: type === 'entity.too.deep' ? 'JSON nests too deep' : 'JSON decode error',
          type: 'json_invalid',
          ctx: { error: (error as Error).message },
        },
      ]),
    );
  };
}
