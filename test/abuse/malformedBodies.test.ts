/**
 * Inputs that used to reach a 500: a body nested 100k levels deep (every recursive
 * walk after the parser overflowed), bodies the parser cannot read at all (a corrupt
 * gzip or deflate stream), a uniqueness rule of the Neo4j schema refusing a write, and
 * malformed JSON sent to a service process of separate-process mode.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { deflateSync, gzipSync } from 'node:zlib';
import { expect } from 'chai';
import { ConflictError } from '../../shared/errors/domainErrors';
import { errorBody } from '../../shared/http/errorResponse';
import { cypher } from '../../shared/neo4j/namedQuery';
import { ServiceMetrics } from '../../services/platform';
import { internalApi } from '../../services/split/internalApi';
import { currentHarness, newUser } from '../support/harness';
import { uuid, workspace } from '../support/graphBuilders';

const deep = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);

describe('abuse: bodies that cannot be read or walked', () => {
  it('refuses JSON nested 100k deep with a 422 before any recursive walk', async () => {
    const w = await workspace(await newUser());
    const body = `{"expected_version":0,"deltas":${deep(100_000)}}`;
    const apply = await w.user.api.post(`/v1/branches/${w.branchId}/deltas`, undefined, {
      raw: body,
      headers: { 'Idempotency-Key': `k-${uuid()}` },
    });
    expect(apply.status).to.equal(422);
    expect(apply.body.detail.error).to.equal('validation_error');
    expect(apply.body.detail.message).to.match(/deeper than 64 levels/);
    // a route with a schema-checked body answers the array form
    const rename = await w.user.api.patch(`/v1/projects/${w.projectId}`, undefined, {
      raw: `{"name":${deep(100_000)}}`,
    });
    expect(rename.status).to.equal(422);
    expect(rename.body.detail[0]).to.include({ type: 'json_invalid', msg: 'JSON nests too deep' });
  });

  it('still takes a body nested 64 levels deep (the bound), and reads its data', async () => {
    const w = await workspace(await newUser());
    let data: unknown = 1;
    for (let i = 0; i < 58; i += 1) data = { inner: data };
    const res = await w.post([
      { type: 'add_node', node: { id: uuid(), kind: 'behavior', data: { name: 'n', deep: data } } },
    ]);
    expect(res.status).to.be.oneOf([200, 422]);
    expect(JSON.stringify(res.body)).to.not.match(/nests too deep|deeper than/);
  });

  it('answers a corrupt gzip or deflate body with a 422, not a 500', async () => {
    const w = await workspace(await newUser());
    const url = `${currentHarness().service.url}/v1/branches/${w.branchId}/deltas`;
    const good = Buffer.from(JSON.stringify({ expected_version: 0, deltas: [] }));
    for (const [encoding, bytes] of [
      ['gzip', Buffer.concat([gzipSync(good).subarray(0, 12), Buffer.from('garbage')])],
      ['deflate', Buffer.from('definitely not deflate')],
      ['gzip', deflateSync(good)],
    ] as const) {
      const res = await fetch(url, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${w.user.token}`,
          'content-type': 'application/json',
          'content-encoding': encoding,
        },
        body: bytes,
      });
      const body = (await res.json()) as { detail: { error: string; message: string } };
      expect(res.status, `${encoding}: ${JSON.stringify(body)}`).to.equal(422);
      expect(body.detail.message).to.match(/could not be read/);
    }
  });

  it('maps a uniqueness rule of the schema to 409 constraint_violation', async () => {
    const { executor } = currentHarness().service;
    // two writers racing for one branch id, as the schema's branch_id rule sees them
    const createTwin = cypher('testCreateTwinBranch', 'CREATE (:Branch {id: $id})');
    const id = uuid();
    const twice = executor.writeTx(async (tx) => {
      await tx.run(createTwin, { id });
      await tx.run(createTwin, { id });
    });
    const error = await twice.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).to.be.instanceOf(ConflictError);
    const answer = errorBody(error as ConflictError);
    expect(answer.status).to.equal(409);
    expect(answer.body).to.have.nested.property('detail.code', 'constraint_violation');
    expect(JSON.stringify(answer.body)).to.not.match(/Neo\.|Cypher|MATCH|CREATE/);
  });

  it("answers malformed JSON to a service process's internal API with JSON, no stack", async () => {
    const h = currentHarness();
    const app = internalApi({
      service: 'graph-write',
      operations: {},
      secret: 'x'.repeat(32),
      executor: h.service.executor,
      logger: h.service.logger,
      maxBodyBytes: 1024,
      metrics: new ServiceMetrics(),
      // never reached: the body cannot be read, so no identity is looked at
      usedIdentities: { claim: async () => true },
    });
    const server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    try {
      const { port } = server.address() as AddressInfo;
      const res = await fetch(`http://127.0.0.1:${port}/internal/v1/applyDeltas`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"params": ',
      });
      expect(res.status).to.equal(400);
      expect(res.headers.get('content-type')).to.match(/application\/json/);
      const text = await res.text();
      expect(text).to.not.match(/<html|<pre>|at \S+ \(/i);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
