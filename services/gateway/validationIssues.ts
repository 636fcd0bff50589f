/**
 * Turns ajv errors from openapi-backend's request validation into the FastAPI-style
 * items of the HTTPValidationError schema: {loc, msg, type, ctx?, input?}.
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

/**
 * Keywords whose issue is one ajv parameter put into a message, a type and ctx:
 * `{value}` stands for the parameter's value.
 */
const SIMPLE: Record<string, { param: string; msg: string; type: string; ctx: string }> = {
  type: {
    param: 'type',
    msg: 'Input should be of type {value}',
    type: '{value}_type',
    ctx: 'expected',
  },
  minLength: {
    param: 'limit',
    msg: 'String should have at least {value} characters',
    type: 'string_too_short',
    ctx: 'min_length',
  },
  maxLength: {
    param: 'limit',
    msg: 'String should have at most {value} characters',
    type: 'string_too_long',
    ctx: 'max_length',
  },
  minimum: {
    param: 'limit',
    msg: 'Input should be greater than or equal to {value}',
    type: 'greater_than_equal',
    ctx: 'ge',
  },
  maximum: {
    param: 'limit',
    msg: 'Input should be less than or equal to {value}',
    type: 'less_than_equal',
    ctx: 'le',
  },
  maxItems: {
    param: 'limit',
    msg: 'List should have at most {value} items',
    type: 'too_long',
    ctx: 'max_length',
  },
  format: {
    param: 'format',
    msg: 'Input should be a valid {value}',
    type: '{value}_parsing',
    ctx: 'format',
  },
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
  const simple = SIMPLE[error.keyword];
  if (simple) {
    const value = params[simple.param];
    return {
      loc,
      msg: simple.msg.replace('{value}', String(value)),
      type: simple.type.replace('{value}', String(value)),
      ctx: { [simple.ctx]: value },
    };
  }
  switch (error.keyword) {
    case 'required':
      return {
        loc: [...loc, String(params.missingProperty)],
        msg: 'Field required',
        type: 'missing',
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
