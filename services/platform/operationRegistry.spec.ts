/**
 * Unit tests: the operation registry is read from the x-service of each operation in
 * the OpenAPI document, a document with an operation of no known owner is refused,
 * and every operation a service owns has a handler built from what its process has.
 */
import { expect } from 'chai';
import { SERVICE_NAMES } from '../../shared/config/serviceNames';
import { loadConfig } from '../../shared/config/config';
import { createLogger } from '../../shared/logging/logger';
import { Executor } from '../../shared/neo4j/executor';
import type { ServiceContext } from '../../shared/http/serviceContext';
import { operationHandlers } from './operationHandlers';
import {
  loadOperationRegistry,
  OperationRegistryError,
  operationRegistryOf,
} from './operationRegistry';

const op = (operationId: string, service?: unknown) => ({
  operationId,
  ...(service === undefined ? {} : { 'x-service': service }),
  responses: {},
});

describe('operation registry', () => {
  const registry = loadOperationRegistry();

  it('gives every operation of the document an owner, the gateway keeping the probes and /metrics', () => {
    expect(registry.operationsOf('gateway').sort()).to.deep.equal([
      'getHealth',
      'getMetrics',
      'getReady',
    ]);
    for (const name of SERVICE_NAMES)
      expect(registry.operationsOf(name), name).to.not.have.length(0);
    const all = registry.operations.map((o) => o.operationId);
    expect(new Set(all).size).to.equal(all.length);
    expect(registry.serviceOperations()).to.have.length(all.length - 3);
    expect(registry.ownerOf('applyDeltas')).to.equal('graph-write');
    expect(registry.ownerOf('getSubtree')).to.equal('graph-read');
  });

  it('knows which operations take an Idempotency-Key and which delete', () => {
    const keyed = registry.operations.filter((o) => o.idempotencyKey).map((o) => o.operationId);
    expect(keyed).to.deep.equal(['applyDeltas', 'revertBranch', 'rebaseBranch']);
    expect(registry.get('discardBranch')?.method).to.equal('DELETE');
  });

  it('refuses a document whose operations lack an owner or name an unknown one, naming each', () => {
    const document = {
      paths: {
        '/a': { get: op('readA', 'graph-read'), post: op('writeA') },
        '/b': { parameters: [], delete: op('dropB', 'storage') },
        '/c': { put: { 'x-service': 'projects' } },
      },
    };
    let thrown: unknown;
    try {
      operationRegistryOf(document, 'test.yaml');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).to.be.instanceOf(OperationRegistryError);
    const problems = (thrown as OperationRegistryError).problems;
    expect(problems).to.have.length(3);
    expect(problems[0]).to.contain('writeA').and.contain('got null');
    expect(problems[1]).to.contain('dropB').and.contain('"storage"');
    expect(problems[2]).to.equal('PUT /c has no operationId');
    expect((thrown as Error).message).to.contain('test.yaml');
  });

  it('follows a parameter $ref to find an Idempotency-Key header', () => {
    const keyed = operationRegistryOf({
      components: { parameters: { Key: { name: 'Idempotency-Key', in: 'header' } } },
      paths: {
        '/x': {
          post: {
            ...op('apply', 'graph-write'),
            parameters: [{ $ref: '#/components/parameters/Key' }],
          },
        },
      },
    });
    expect(keyed.get('apply')?.idempotencyKey).to.equal(true);
  });

  describe('handlers', () => {
    const config = loadConfig({ GDS_ENV: 'development' });
    const executor = new Executor({ ...config.neo4j, logger: createLogger({ level: 'silent' }) });
    const ctx: ServiceContext = { executor, config, logger: createLogger({ level: 'silent' }) };
    after(() => executor.close());

    it('builds a handler for every operation each service process owns', () => {
      for (const name of SERVICE_NAMES) {
        const owned = registry.operationsOf(name);
        const needsKeys = owned.some((id) => registry.get(id)?.idempotencyKey);
        if (needsKeys) continue;
        expect(Object.keys(operationHandlers({ ctx }, owned)), name).to.deep.equal(owned);
      }
    });

    it('refuses to serve applyDeltas without a store of Idempotency-Keys', () => {
      expect(() => operationHandlers({ ctx }, registry.operationsOf('graph-write'))).to.throw(
        /no route factory builds a handler for applyDeltas/,
      );
    });
  });
});
