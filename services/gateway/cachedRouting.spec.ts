/**
 * The cached routing answers exactly as openapi-backend's own router does, for every
 * operation of the OpenAPI document and for paths and methods it does not have.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { OpenAPIRouter, type Request } from 'openapi-backend';
import { parse } from 'yaml';
import { cacheRouting } from './cachedRouting';

const DOCUMENT = join(__dirname, '..', '..', 'openapi', 'graph-design-service.yaml');

function routers() {
  const definition = parse(readFileSync(DOCUMENT, 'utf8'));
  const plain = new OpenAPIRouter({ definition });
  const cached = new OpenAPIRouter({ definition });
  cacheRouting(cached);
  return { plain, cached };
}

/** The outcome of a strict match: the operation id, or the router's error. */
function strict(router: OpenAPIRouter, req: Request): string {
  try {
    return String(router.matchOperation(req, true).operationId);
  } catch (error) {
    return (error as Error).message;
  }
}

describe('cacheRouting', () => {
  it('matches every request as the router does: templates, trailing slashes, 404 and 405', () => {
    const { plain, cached } = routers();
    const requests: Request[] = [];
    for (const op of plain.getOperations()) {
      const path = op.path.replace(/\{[^}]+\}/g, 'a1b2');
      for (const method of ['get', 'post', 'patch', 'delete', 'put']) {
        requests.push({ method, path, headers: {} });
        requests.push({ method: method.toUpperCase(), path: `${path}/`, headers: {} });
        requests.push({ method, path: `${path}?limit=1`, headers: {} });
        requests.push({ method, path: `${path}/extra`, headers: {} });
      }
    }
    requests.push({ method: 'get', path: '/', headers: {} });
    requests.push({ method: 'get', path: '/nowhere', headers: {} });
    requests.push({ method: 'get', path: '/v1/projects/.*', headers: {} });
    for (const req of requests) {
      const label = `${req.method} ${req.path}`;
      expect(cached.matchOperation(req)?.operationId, label).to.equal(
        plain.matchOperation(req)?.operationId,
      );
      expect(strict(cached, req), label).to.equal(strict(plain, req));
    }
    expect(requests.length).to.be.greaterThan(400);
  });

  it('builds the list of operations once', () => {
    const { plain, cached } = routers();
    expect(cached.getOperations()).to.equal(cached.getOperations());
    expect(cached.getOperations().map((op) => op.operationId)).to.deep.equal(
      plain.getOperations().map((op) => op.operationId),
    );
  });
});
