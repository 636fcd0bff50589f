/**
 * openapi-backend's router rebuilds its list of operations from the whole document
 * (a lodash pass, every operation object copied) and compiles a RegExp for every
 * path template on each match, and a request is matched twice (the gateway's
 * routing step, then handleRequest). Profiled under load this was the largest cost
 * of the gateway's own code. The document is fixed once loaded, so after init the
 * list is built once and every path template compiled once; matching keeps the
 * router's rules: an exact path first, then templates from the most specific (the
 * longest literal part), then the method; 404 and 405 errors as the router raises
 * them in strict mode.
 */
import type { Operation, OpenAPIRouter, Request } from 'openapi-backend';

const escapeRegExp = (literal: string) => literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `/v1/branches/{branch_id}` -> /^\/v1\/branches\/[^/]+$/, as the router builds it. */
function templatePattern(path: string): RegExp {
  const literal = path
    .replace(/\{[^}]+\}/g, '\0')
    .split('\0')
    .map(escapeRegExp)
    .join('[^/]+');
  return new RegExp(`^${literal}$`);
}

export function cacheRouting(router: OpenAPIRouter): void {
  // the router strips a non-root apiRoot before matching; this gateway serves from '/'
  if ((router as unknown as { apiRoot: string }).apiRoot !== '/') return;
  const operations = router.getOperations();
  const exact = new Map<string, Operation[]>();
  for (const op of operations) exact.set(op.path, [...(exact.get(op.path) ?? []), op]);
  const specificity = (op: Operation) => op.path.replace(/\{.*?\}/g, '').length;
  // Array.prototype.sort is stable: equally specific templates keep document order
  const templates = operations
    .map((op) => ({ op, pattern: templatePattern(op.path), rank: specificity(op) }))
    .sort((a, b) => b.rank - a.rank);

  router.getOperations = () => operations;

  function match(req: Request, strict?: boolean): Operation | undefined {
    const { path: raw, method } = router.normalizeRequest(req);
    const path = router.normalizePath(raw);
    const exactMatch = exact.get(path)?.find((op) => op.method === method);
    if (exactMatch) return exactMatch;
    const candidates = templates.filter((t) => t.pattern.test(path));
    if (candidates.length === 0) {
      if (strict) throw new Error('404-notFound: no route matches request');
      return undefined;
    }
    const found = candidates.find((t) => t.op.method === method)?.op;
    if (!found && strict)
      throw new Error('405-methodNotAllowed: this method is not registered for the route');
    return found;
  }
  router.matchOperation = match as OpenAPIRouter['matchOperation'];
}
