/** Idempotency-Key on delta apply. */
import { expect } from 'chai';
import { currentHarness, newKeyFor, newUser } from './support/harness';
import { deleteKeys, keysMatching, testRedis } from './support/redisSupport';
import { addNode, uuid, workspace } from './support/graphBuilders';

describe('Idempotency-Key', () => {
  it('replays the first answer with Idempotent-Replayed: true and applies nothing', async () => {
    const w = await workspace(await newUser());
    const key = `k-${uuid()}`;
    const deltas = [addNode({ data: { name: 'once' } })];
    const first = await w.post(deltas, {}, { 'Idempotency-Key': key });
    expect(first.status).to.equal(200);
    expect(first.headers.get('idempotent-replayed')).to.equal(null);
    const second = await w.post(deltas, {}, { 'Idempotency-Key': key });
    expect(second.status).to.equal(200);
    expect(second.headers.get('idempotent-replayed')).to.equal('true');
    expect(second.body).to.deep.equal(first.body);
    const g = await w.graph();
    expect(g.nodes).to.have.length(1);
    expect(g.branch.version).to.equal(1);
  });

  it('answers the same key with a different body with 422 idempotency_key_reused', async () => {
    const w = await workspace(await newUser());
    const key = `k-${uuid()}`;
    await w.post([addNode({})], {}, { 'Idempotency-Key': key });
    const res = await w.post([addNode({})], { expected_version: 1 }, { 'Idempotency-Key': key });
    expect(res.status).to.equal(422);
    expect(res.body.detail.code).to.equal('idempotency_key_reused');
  });

  it('keeps a version_conflict answer for replay', async () => {
    const w = await workspace(await newUser());
    await w.apply([addNode({})]);
    const key = `k-${uuid()}`;
    const body = [addNode({})];
    const first = await w.post(body, { expected_version: 0 }, { 'Idempotency-Key': key });
    expect(first.status).to.equal(409);
    const again = await w.post(body, { expected_version: 0 }, { 'Idempotency-Key': key });
    expect(again.status).to.equal(409);
    expect(again.headers.get('idempotent-replayed')).to.equal('true');
    expect(again.body).to.deep.equal(first.body);
  });

  it('keeps 404 node_not_found and 422 invariant answers for replay, but not a 403', async () => {
    const w = await workspace(await newUser());
    for (const deltas of [
      [{ type: 'delete_node', node_id: uuid() }], // 404 node_not_found
      [addNode({ data: { name: 'a' } }), addNode({ data: { name: 'a' } })], // 422 duplicate_name
    ]) {
      const key = `k-${uuid()}`;
      const first = await w.post(deltas, {}, { 'Idempotency-Key': key });
      expect([404, 422]).to.include(first.status);
      const again = await w.post(deltas, {}, { 'Idempotency-Key': key });
      expect(again.status).to.equal(first.status);
      expect(again.headers.get('idempotent-replayed')).to.equal('true');
      expect(again.body).to.deep.equal(first.body);
    }
    // a 403 never reached the apply step: the same key then works for a key that may write
    const key = `k-${uuid()}`;
    const readOnly = await newKeyFor(w.user, { scopes: [] });
    const refused = await readOnly.api.post(
      `/v1/branches/${w.branchId}/deltas`,
      { deltas: [addNode({})], expected_version: 0 },
      { headers: { 'Idempotency-Key': key } },
    );
    expect(refused.status).to.equal(403);
    const applied = await w.post([addNode({})], {}, { 'Idempotency-Key': key });
    expect(applied.status).to.equal(200);
    expect(applied.headers.get('idempotent-replayed')).to.equal(null);
  });

  it('applies once under 8 concurrent retries with one key', async () => {
    const w = await workspace(await newUser());
    const key = `k-${uuid()}`;
    const deltas = [addNode({ data: { name: 'x' } })];
    const results = await Promise.all(
      Array.from({ length: 8 }, () => w.post(deltas, {}, { 'Idempotency-Key': key })),
    );
    for (const r of results) expect([200, 409]).to.include(r.status);
    for (const r of results.filter((x) => x.status === 409))
      expect(r.body.detail.code).to.equal('idempotency_key_in_progress');
    const g = await w.graph();
    expect(g.nodes).to.have.length(1);
    expect(g.branch.version).to.equal(1);
  });

  it('scopes keys to the branch: the same key on another branch applies there', async () => {
    const user = await newUser();
    const a = await workspace(user);
    const b = await workspace(user);
    const key = `k-${uuid()}`;
    expect((await a.post([addNode({})], {}, { 'Idempotency-Key': key })).status).to.equal(200);
    const other = await b.post([addNode({})], {}, { 'Idempotency-Key': key });
    expect(other.status).to.equal(200);
    expect(other.headers.get('idempotent-replayed')).to.equal(null);
  });

  it('answers from the batch recorded in Neo4j when Redis lost the answer: a replay, never a second apply', async () => {
    const w = await workspace(await newUser());
    const key = `k-${uuid()}`;
    const deltas = [addNode({ data: { name: 'once' } })];
    const first = await w.post(deltas, {}, { 'Idempotency-Key': key });
    expect(first.status).to.equal(200);
    // what a crash between the Neo4j commit and the Redis write leaves behind
    const redis = await testRedis(currentHarness().config);
    try {
      const cached = await keysMatching(redis, `idem:${w.user.userId}:${w.branchId}:*`);
      expect(cached).to.have.length(1);
      await deleteKeys(redis, cached);
      const retry = await w.post(deltas, {}, { 'Idempotency-Key': key });
      expect(retry.status).to.equal(200);
      expect(retry.headers.get('idempotent-replayed')).to.equal('true');
      expect(retry.body).to.deep.equal(first.body);
      await deleteKeys(redis, await keysMatching(redis, `idem:${w.user.userId}:${w.branchId}:*`));
      const other = await w.post([addNode({})], {}, { 'Idempotency-Key': key });
      expect(other.status).to.equal(422);
      expect(other.body.detail.code).to.equal('idempotency_key_reused');
    } finally {
      redis.disconnect();
    }
    const g = await w.graph();
    expect(g.nodes).to.have.length(1);
    expect(g.branch.version).to.equal(1);
  });

  it('refuses a key that is too long (422 array form)', async () => {
    const w = await workspace(await newUser());
    const res = await w.post([addNode({})], {}, { 'Idempotency-Key': 'k'.repeat(256) });
    expect(res.status).to.equal(422);
    expect(res.body.detail).to.be.an('array');
  });
});
