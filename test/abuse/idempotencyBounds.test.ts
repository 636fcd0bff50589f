/**
 * Idempotency-Key answers are bounded and kept for the caller who may see them: an
 * answer that echoes a large input is not stored whole (Redis would fill within a
 * few hundred requests), a kept answer is replayed only to a key that could apply the
 * batch itself, a late release never deletes a newer reservation, and the key
 * recorded with a batch in Neo4j is forgotten after the idempotency window.
 */
import { expect } from 'chai';
import type { RedisClient } from '../../shared/redis/redisClient';
import { expireIdempotencyKeys } from '../../services/graph/commands/expireIdempotencyKeys';
import { IdempotencyStore, MAX_STORED_ANSWER_BYTES } from '../../services/graph/idempotency';
import { currentHarness, newKeyFor, newUser } from '../support/harness';
import { addNode, uuid, workspace } from '../support/graphBuilders';

async function usedMemory(redis: RedisClient): Promise<number> {
  return Number(/^used_memory:(\d+)/m.exec(await redis.info('memory'))?.[1]);
}

async function storedAnswers(redis: RedisClient, userId: string, branchId: string) {
  const keys = await redis.keys(`idem:${userId}:${branchId}:*`);
  return Promise.all(keys.map((k) => redis.strlen(k)));
}

describe('abuse: Idempotency-Key answers', function () {
  this.timeout(60_000);
  it('keeps answers that echo a large input as a fingerprint only, and answers repeats the same', async () => {
    const { redis } = currentHarness().service;
    const w = await workspace(await newUser());
    const name = 'n'.repeat(60_000);
    const deltas = [addNode({ data: { name } }), addNode({ data: { name } })];
    const before = await usedMemory(redis);
    const firsts = [];
    for (let i = 0; i < 30; i += 1) {
      const res = await w.post(deltas, {}, { 'Idempotency-Key': `echo-${i}` });
      expect(res.status).to.equal(422);
      firsts.push(res);
    }
    const grown = (await usedMemory(redis)) - before;
    // 30 answers of 60 KB or more each would be 1.8 MB kept for 24 hours
    expect(grown, `Redis grew by ${grown} bytes`).to.be.below(512 * 1024);
    for (const length of await storedAnswers(redis, w.user.userId, w.branchId))
      expect(length).to.be.at.most(MAX_STORED_ANSWER_BYTES);
    // a repeat is answered the same (run again: the batch wrote nothing the first time)
    const again = await w.post(deltas, {}, { 'Idempotency-Key': 'echo-0' });
    expect(again.status).to.equal(firsts[0].status);
    expect(again.body).to.deep.equal(firsts[0].body);
    // and the key still refuses a different body
    const other = await w.post([addNode({})], {}, { 'Idempotency-Key': 'echo-0' });
    expect(other.status).to.equal(422);
    expect(other.body.detail.code).to.equal('idempotency_key_reused');
    expect((await w.graph()).nodes).to.have.length(0);
  });

  it('stores an answer over the bound as its fingerprint only, and lets a repeat derive it again', async () => {
    const { redis } = currentHarness().service;
    const store = new IdempotencyStore({ redis, ttlSeconds: 60 });
    const scope = `scope-${uuid()}`;
    const first = await store.reserve(scope, 'k', 'print');
    expect(first.kind).to.equal('proceed');
    const echo = { detail: { error: 'validation_error', message: 'x'.repeat(1024 * 1024) } };
    await store.complete(scope, 'k', 'print', { status: 422, body: echo });
    const [stored] = await redis.keys(`idem:${scope}:*`);
    expect(await redis.strlen(stored)).to.be.below(1024);
    // a repeat with the same body runs again; another body is still refused
    expect((await store.reserve(scope, 'k', 'print')).kind).to.equal('proceed');
    await store.reserve(scope, 'k', 'other').then(
      () => expect.fail('a different body was accepted'),
      (e: { code?: string }) => expect(e.code).to.equal('idempotency_key_reused'),
    );
    // a small answer is kept whole and replayed
    await store.complete(scope, 'k', 'print', { status: 409, body: { detail: { code: 'x' } } });
    const replay = await store.reserve(scope, 'k', 'print');
    expect(replay).to.deep.equal({
      kind: 'replay',
      response: { status: 409, body: { detail: { code: 'x' } } },
    });
  });

  it('replays a kept answer only to a key that may apply the batch', async () => {
    const owner = await newUser();
    const w = await workspace(owner);
    const elsewhere = await workspace(owner);
    const key = `k-${uuid()}`;
    const deltas = [addNode({ data: { name: 'once' } })];
    expect((await w.post(deltas, {}, { 'Idempotency-Key': key })).status).to.equal(200);
    const body = { deltas, expected_version: 0 };
    const path = `/v1/branches/${w.branchId}/deltas`;
    const readOnly = await newKeyFor(owner, { scopes: [] });
    const noScope = await readOnly.api.post(path, body, { headers: { 'Idempotency-Key': key } });
    expect(noScope.status).to.equal(403);
    expect(noScope.headers.get('idempotent-replayed')).to.equal(null);
    const fenced = await newKeyFor(owner, { projects: [elsewhere.projectId] });
    const outside = await fenced.api.post(path, body, { headers: { 'Idempotency-Key': key } });
    expect(outside.status).to.equal(404);
    expect(outside.headers.get('idempotent-replayed')).to.equal(null);
    // the key that may write still gets the replay
    const replay = await w.post(deltas, {}, { 'Idempotency-Key': key });
    expect(replay.headers.get('idempotent-replayed')).to.equal('true');
  });

  it('a late release leaves a newer reservation of the same key alone', async () => {
    const { redis } = currentHarness().service;
    const store = new IdempotencyStore({ redis, ttlSeconds: 60, inFlightSeconds: 60 });
    const scope = `scope-${uuid()}`;
    const first = await store.reserve(scope, 'k', 'print');
    expect(first.kind).to.equal('proceed');
    // the first reservation expired while its request still ran; a retry took the key
    await redis.del((await redis.keys(`idem:${scope}:*`))[0]);
    const second = await store.reserve(scope, 'k', 'print');
    expect(second.kind).to.equal('proceed');
    if (first.kind !== 'proceed') return;
    await store.release(scope, 'k', first.token, 'print');
    const third = store.reserve(scope, 'k', 'print');
    await third.then(
      () => expect.fail('the newer reservation was deleted'),
      (e: { code?: string }) => expect(e.code).to.equal('idempotency_key_in_progress'),
    );
  });

  it('forgets the key recorded in Neo4j after the idempotency window', async () => {
    const { redis, executor } = currentHarness().service;
    const w = await workspace(await newUser());
    const key = `k-${uuid()}`;
    expect((await w.post([addNode({})], {}, { 'Idempotency-Key': key })).status).to.equal(200);
    w.version = 1;
    // a day later: Redis's copy has expired, and the worker's sweep has run
    await redis.del(...(await redis.keys(`idem:${w.user.userId}:${w.branchId}:*`)));
    const forgotten = await expireIdempotencyKeys(executor, {
      ttlSeconds: 86_400,
      now: Date.now() + 86_400_000 + 1000,
    });
    expect(forgotten).to.be.at.least(1);
    const reused = await w.post([addNode({})], {}, { 'Idempotency-Key': key });
    expect(reused.status).to.equal(200);
    expect(reused.headers.get('idempotent-replayed')).to.equal(null);
    expect((await w.graph()).nodes).to.have.length(2);
  });
});
