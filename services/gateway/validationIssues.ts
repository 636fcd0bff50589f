/**
 * Turns ajv errors from openapi-backend's request validation into the FastAPI-style
 * items of HTTPValidationError: {loc, msg, type, ctx?, input?}.
 */
import type { ErrorObject } from 'ajv';
import type { ValidationIssue } from '../../shared/errors/domainErrors';

const LOCATION: Record<string, string> = {
  requestBody: 'body',
  query: 'query',
  path: 'path',
  header: 'header',
  cookie: 'cookie',
};

function pointerToLoc(pointer: string): (string | number)[] {
  const parts = pointer
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (parts.length === 0) return ['body'];
  const [first, ...rest] = parts;
  return [LOCATION[first] ?? first, ...rest.map((p) => (/^\d+$/.test(p) ? Number(p) : p))];
}

function issueFor(error: ErrorObject): ValidationIssue {
  const loc = pointerToLoc(error.instancePath);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return {
        loc: [...loc, String(params.missingProperty)],
        msg: 'Field required',
        type: 'missing',
      };
    case 'type':
      return {
        loc,
        msg: `Input should be of type ${String(params.type)}`,
        type: `${String(params.type)}_type`,
        ctx: { expected: params.type },
      };
    case 'minLength':
      return {
        loc,
        msg: `String should have at least ${String(params.limit)} characters`,
        type: 'string_too_short',
        ctx: { min_length: params.limit },
      };
    case 'maxLength':
      return {
        loc,
        msg: `String should have at most ${String(params.limit)} characters`,
        type: 'string_too_long',
        ctx: { max_length: params.limit },
      };
    case 'minimum':
      return {
        loc,
        msg: `Input should be greater than or equal to ${String(params.limit)}`,
        type: 'greater_than_equal',
        ctx: { ge: params.limit },
      };
    case 'maximum':
      return {
        loc,
        msg: `Input should be less than or equal to ${String(params.limit)}`,
        type: 'less_than_equal',
        ctx: { le: params.limit },
      };
    case 'maxItems':
      return {
        loc,
        msg: `List should have at most ${String(params.limit)} items`,
        type: 'too_long',
        ctx: { max_length: params.limit },
      };
    case 'format':
      return {
        loc,
        msg: `Input should be a valid ${String(params.format)}`,
        type: `${String(params.format)}_parsing`,
        ctx: { format: params.format },
      };
    case 'enum':
      return {
        loc,
        msg: `Input should be one of ${(params.allowedValues as unknown[]).join(', ')}`,
        type: 'enum',
        ctx: { expected: params.allowedValues },
      };
    case 'parse':
      return {
        loc: ['body'],
        msg: 'JSON decode error',
        type: 'json_invalid',
        ctx: { error: error.message },
      };
    default:
      return { loc, msg: error.message ?? 'Invalid input', type: error.keyword };
  }
}

/** Maps and de-duplicates ajv errors (oneOf/anyOf branches repeat themselves). */
export function validationIssues(errors: ErrorObject[]): ValidationIssue[] {
  const seen = new Set<string>();
  const issues: ValidationIssue[] = [];
  for (const error of errors) {
    const issue = issueFor(error);
    const key = JSON.stringify([issue.loc, issue.type]);
    if (!seen.has(key)) {
      seen.add(key);
      issues.push(issue);
    }
  }
  return issues;
}
