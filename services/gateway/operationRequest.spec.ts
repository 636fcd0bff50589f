import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { OpenAPIBackend, Operation, Request } from 'openapi-backend';
import { OPENAPI_PATH } from '../platform';
import {
  initOpenApiBackend,
  openApiBackend,
  operationChecker,
  RawRequest,
} from './operationRequest';

const ID = '3f2c1a9e-8b7d-4c6e-9f10-2a3b4c5d6e7f';

/** The same backend the gateway builds. */
async function backend(): Promise<OpenAPIBackend> {
  const api = openApiBackend(OPENAPI_PATH);
  await initOpenApiBackend(api);
  return api;
}

const pathFor = (op: Operation, value: string) => op.path.replace(/\{[^}]+\}/g, value);

const QUERIES: Array<Record<string, unknown>> = [
  {},
  { limit: '5' },
  { limit: 'abc', offset: '-1' },
  { unknown: 'x' },
  { limit: ['1', '2'] },
  { q: 'name', kind: 'service', depth: '2', cursor: 'abc' },
  { include: 'nodes', since: '2026-01-01T00:00:00Z', version: '3' },
  { state: 'open', project_id: ID, include_archived: 'true' },
  { state: ['open', 'bogus'], include_archived: 'maybe' },
];
const BODIES: unknown[] = [undefined, {}, { name: 'p', intent: 'cli' }, 'text', 5, null, [1]];
const HEADERS: Array<Record<string, string>> = [
  { 'content-type': 'application/json' },
  { 'content-type': 'text/plain', 'if-match': '"3"', 'idempotency-key': 'k-1' },
  {},
  // header parameters the document refuses
  { 'x-graph-bookmark': 'not a token!', 'idempotency-key': '', 'last-event-id': 'x' },
  { 'content-type': 'application/json', 'x-graph-bookmark': 'abc', 'last-event-id': '12' },
];

describe('operationChecker', () => {
  let api: OpenAPIBackend;
  before(async function () {
    this.timeout(30_000);
    api = await backend();
  });

  it("gives every operation the errors, path parameters and query of openapi-backend's handleRequest", async () => {
    const check = operationChecker(api);
    let compared = 0;
    for (const op of api.router.getOperations()) {
      for (const param of [ID, 'not-a-uuid', 'a%20b']) {
        for (const query of QUERIES) {
          for (const [i, body] of BODIES.entries()) {
            const headers = HEADERS[i % HEADERS.length];
            const request = {
              method: op.method,
              path: pathFor(op, param),
              query: structuredClone(query),
              headers: { ...headers },
              body,
            } as Request;
            const checked = check(
              op,
              {
                ...request,
                query: structuredClone(query),
                queryAsSent: () => structuredClone(query),
              } as RawRequest,
              true,
            );
            if (!checked) throw new Error(`${op.operationId} is left to handleRequest`);
            const validation = api.validator.validateRequest(request, op);
            const parsed = api.router.parseRequest(
              validation.errors ? request : (validation.coerced as Request),
              op,
            );
            const what = `${op.operationId} ${JSON.stringify({ param, query, body, headers })}`;
            expect(checked.errors ?? null, what).to.deep.equal(validation.errors);
            expect(checked.params, what).to.deep.equal(parsed.params);
            expect(checked.query, what).to.deep.equal(parsed.query);
            if (checked.errors)
              expect(checked.query, `${what}: a refused request's query is as sent`).to.deep.equal(
                query,
              );
            compared++;
          }
        }
      }
    }
    expect(compared).to.be.greaterThan(1000);
  });

  it('refuses an operation with a security requirement when no one is authenticated', async () => {
    const op = api.router.getOperation('listProjects') as Operation;
    const request = {
      path: '/v1/projects',
      query: {},
      queryAsSent: () => ({}),
      headers: {},
      body: undefined,
    };
    expect(operationChecker(api)(op, request, false)?.unauthorized).to.equal(true);
    expect(operationChecker(api)(op, request, true)?.unauthorized).to.equal(false);
  });
});

describe('initOpenApiBackend', () => {
  it('compiles every request validator and fails on a document that is not valid OpenAPI', async () => {
    const api = await backend();
    const validators = (api.validator as unknown as { requestValidators: object })
      .requestValidators;
    expect(Object.keys(validators)).to.have.length(api.router.getOperations().length);
    const dir = mkdtempSync(join(tmpdir(), 'openapi-'));
    try {
      const broken = join(dir, 'broken.yaml');
      // `info` is required and a path item cannot be a string
      writeFileSync(broken, 'openapi: 3.1.0\npaths:\n  /x: nonsense\n');
      let failure: unknown;
      await initOpenApiBackend(openApiBackend(broken)).catch((error: unknown) => (failure = error));
      expect(String(failure)).to.match(/not valid OpenAPI/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
