/**
 * Read-your-writes across processes: writes answer X-Graph-Bookmark, reads take it
 * (from the client, or from the gateway's per-key memory in Redis) and wait for it.
 * A second service instance through a routing `neo4j://` URI plays the other
 * process: its own driver, its own bookmark manager, the same database. Tokens are
 * signed with INTERNAL_SECRET: only the service's own count, and a read waits for them
 * at most GRAPH_BOOKMARK_WAIT_MS.
 */
import { expect } from 'chai';
import { loadConfigWith } from '../shared/config/config';
import { createLogger } from '../shared/logging/logger';
import { BookmarkTokens } from '../shared/neo4j/graphBookmarks';
import { RunningService, startService } from '../services/gateway/server';
import { ApiClient } from './support/client';
import { addNode, workspace } from './support/graphBuilders';
import { currentHarness, newKeyFor, newUser, TEST_ENV } from './support/harness';
import { testRedis } from './support/redisSupport';
import { startLimited } from './abuse/limitedService';
import { within } from './support/within';

/** The INTERNAL_SECRET the processes of a test share (their tokens honour each other's). */
const SECRET = 'bookmarks-test-internal-secret-0123456789abcdef';

/**
 * A bookmark of a transaction the database will not reach for a long time: a real one
 * (Neo4j 5: a packed database id and transaction id, base64) with its transaction id
 * replaced by one far ahead. A read started from it waits until the server gives up.
 */
function farFutureBookmark(real: string): string {
  const raw = Buffer.from(real.replace(/^FB:/, ''), 'base64');
  const ahead = Buffer.concat([
    raw.subarray(0, 19),
    Buffer.from([0xca, 0x00, 0x7f, 0xff, 0xff, 0x90]),
  ]);
  return `FB:${ahead.toString('base64')}`;
}

const TOKEN = /^[A-Za-z0-9_-]+$/;

describe('X-Graph-Bookmark: read-your-writes across processes', function () {
  // the first writes plan the batch path's statements, seconds each on a loaded machine
  this.timeout(180_000);
  let other: RunningService | undefined;

  before(async () => {
    const config = currentHarness().config;
    const routed = config.neo4j.uri.replace(/^bolt:/, 'neo4j:');
    expect(routed).to.match(/^neo4j:\/\//);
    other = await startService(
      loadConfigWith({ ...TEST_ENV, NEO4J_URI: routed, INTERNAL_SECRET: SECRET }),
      createLogger({ level: 'silent' }),
    );
  });
  after(async () => {
    await other?.close();
  });

  it('answers a token on a committed write, none on a dry run or a read', async () => {
    const w = await workspace(await newUser());
    const applied = await w.post([addNode({ data: { name: 'one' } })]);
    expect(applied.status).to.equal(200);
    expect(applied.headers.get('x-graph-bookmark')).to.match(TOKEN);
    const dryRun = await w.user.api.post(`/v1/branches/${w.branchId}/validate`, {
      deltas: [addNode({})],
    });
    expect(dryRun.status).to.equal(200);
    expect(dryRun.headers.get('x-graph-bookmark')).to.equal(null);
    const read = await w.user.api.get(`/v1/branches/${w.branchId}/graph`);
    expect(read.headers.get('x-graph-bookmark')).to.equal(null);
  });

  it('a write through one process (routing neo4j:// URI) is seen by a read through another that shares INTERNAL_SECRET and gets its token', async () => {
    const user = await newUser();
    const w = await workspace(user);
    const viaOther = new ApiClient(other!.url, currentHarness().contract).withToken(user.token);
    const written = await viaOther.post(`/v1/branches/${w.branchId}/deltas`, {
      expected_version: w.version,
      deltas: [addNode({ data: { name: 'written-elsewhere' } })],
    });
    expect(written.status).to.equal(200);
    const token = written.headers.get('x-graph-bookmark') as string;
    expect(token).to.match(TOKEN);
    expect(new BookmarkTokens(SECRET).read(token)).to.have.length(1);
    // another key of the owner (the gateway remembers nothing for it) sends the token along
    const reader = await newKeyFor(user, {});
    expect(reader.keyId).to.not.equal(user.keyId);
    const third = await startLimited({
      NEO4J_URI: currentHarness().config.neo4j.uri.replace(/^bolt:/, 'neo4j:'),
      INTERNAL_SECRET: SECRET,
    });
    const read = await third
      .api(reader)
      .get(`/v1/branches/${w.branchId}/graph`, { headers: { 'X-Graph-Bookmark': token } })
      .finally(() => third.close());
    expect(read.status).to.equal(200);
    expect(read.body.nodes.map((n: { data: { name?: string } }) => n.data.name)).to.include(
      'written-elsewhere',
    );
    expect(read.body.branch.version).to.equal(w.version + 1);
  });

  it('the gateway remembers the newest token per key and branch in Redis and adds it to reads', async () => {
    const user = await newUser();
    const w = await workspace(user);
    const viaOther = new ApiClient(other!.url, currentHarness().contract).withToken(user.token);
    const written = await viaOther.post(`/v1/branches/${w.branchId}/deltas`, {
      expected_version: w.version,
      deltas: [addNode({ data: { name: 'remembered' } })],
    });
    const token = written.headers.get('x-graph-bookmark');
    const redis = await testRedis(currentHarness().config);
    try {
      expect(await redis.get(`{gbm:${user.keyId}}:*`)).to.equal(token);
      expect(await redis.get(`{gbm:${user.keyId}}:${w.branchId}`)).to.equal(token);
      expect(await redis.ttl(`{gbm:${user.keyId}}:*`)).to.be.within(1, 60);
    } finally {
      redis.disconnect();
    }
    const read = await w.user.api.get(`/v1/branches/${w.branchId}/graph`);
    expect(read.body.nodes.map((n: { data: { name?: string } }) => n.data.name)).to.include(
      'remembered',
    );
  });

  it('refuses a value that is not a token with the 422 array form', async () => {
    const w = await workspace(await newUser());
    const res = await w.user.api.get(`/v1/branches/${w.branchId}/graph`, {
      headers: { 'X-Graph-Bookmark': 'not a token' },
    });
    expect(res.status).to.equal(422);
    expect(res.body.detail).to.be.an('array');
  });

  it('ignores a well-formed token it did not sign: a read does not wait for a transaction that never comes', async () => {
    const user = await newUser();
    const w = await workspace(user);
    // a real bookmark, from a token `other` signed, to forge one far ahead of it
    const viaOther = new ApiClient(other!.url, currentHarness().contract).withToken(user.token);
    const written = await viaOther.post(`/v1/branches/${w.branchId}/deltas`, {
      expected_version: w.version,
      deltas: [addNode({})],
    });
    const [real] = new BookmarkTokens(SECRET).read(written.headers.get('x-graph-bookmark') ?? '');
    const ahead = farFutureBookmark(real);
    // what a caller can forge: the unsigned list of bookmarks, or one signed with a guess
    const forged = [
      Buffer.from(JSON.stringify([ahead])).toString('base64url'),
      new BookmarkTokens('a-guessed-secret-that-is-not-the-services-own').issue([ahead]),
    ];
    for (const token of forged) {
      const res = await within(
        10_000,
        w.user.api.get(`/v1/branches/${w.branchId}/graph`, {
          headers: { 'X-Graph-Bookmark': token },
        }),
      );
      expect(res, 'the read waited for a forged bookmark').to.not.equal('pending');
      if (res === 'pending') return;
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
    }
  });

  it('waits for a signed bookmark at most GRAPH_BOOKMARK_WAIT_MS, then answers 503 with Retry-After', async () => {
    const limited = await startLimited({ INTERNAL_SECRET: SECRET, GRAPH_BOOKMARK_WAIT_MS: '300' });
    try {
      const w = await workspace(await newUser());
      const api = limited.api(w.user);
      const written = await api.post(`/v1/branches/${w.branchId}/deltas`, {
        expected_version: w.version,
        deltas: [addNode({})],
      });
      expect(written.status).to.equal(200);
      const tokens = new BookmarkTokens(SECRET);
      const [real] = tokens.read(written.headers.get('x-graph-bookmark') as string);
      // its own token: waited for and reached
      const seen = await api.get(`/v1/branches/${w.branchId}/graph`, {
        headers: { 'X-Graph-Bookmark': tokens.issue([real]) },
      });
      expect(seen.status).to.equal(200);
      expect(seen.body.branch.version).to.equal(1);
      // a signed bookmark the database does not reach (a store restored from an older
      // backup, a member far behind): a bounded wait, then a 503 to retry
      const started = Date.now();
      const res = await within(
        10_000,
        api.get(`/v1/branches/${w.branchId}/graph`, {
          headers: { 'X-Graph-Bookmark': tokens.issue([farFutureBookmark(real)]) },
        }),
      );
      expect(res, 'the read waited past the bound').to.not.equal('pending');
      if (res === 'pending') return;
      expect(res.status, JSON.stringify(res.body)).to.equal(503);
      expect(res.body.detail.code).to.equal('service_unavailable');
      expect(Number(res.headers.get('retry-after'))).to.be.greaterThan(0);
      expect(Date.now() - started).to.be.below(5_000);
    } finally {
      await limited.close();
    }
  });

  it("ignores a token in the gateway's Redis memory that it did not sign", async () => {
    const limited = await startLimited({ INTERNAL_SECRET: SECRET, GRAPH_BOOKMARK_TTL_S: '60' });
    try {
      const user = await newUser();
      const w = await workspace(user);
      const written = await limited.api(user).post(`/v1/branches/${w.branchId}/deltas`, {
        expected_version: w.version,
        deltas: [addNode({})],
      });
      const [real] = new BookmarkTokens(SECRET).read(
        written.headers.get('x-graph-bookmark') as string,
      );
      // anyone who can write to Redis could leave a bookmark there for the key's reads
      const forged = Buffer.from(JSON.stringify([farFutureBookmark(real)])).toString('base64url');
      const redis = await testRedis(currentHarness().config);
      try {
        await redis.set(`{gbm:${user.keyId}}:*`, forged, 'EX', 60);
      } finally {
        redis.disconnect();
      }
      const res = await within(10_000, limited.api(user).get(`/v1/branches/${w.branchId}/graph`));
      expect(res, 'the read waited for a bookmark found in Redis').to.not.equal('pending');
      if (res === 'pending') return;
      expect(res.status).to.equal(200);
    } finally {
      await limited.close();
    }
  });
});
