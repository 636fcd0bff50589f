/**
 * Read-your-writes across processes: writes answer X-Graph-Bookmark, reads take it
 * (from the client, or from the gateway's per-key memory in Redis) and wait for it.
 * A second service instance through a routing `neo4j://` URI plays the other
 * process: its own driver, its own bookmark manager, the same database.
 */
import { expect } from 'chai';
import { loadConfigWith } from '../shared/config/config';
import { createLogger } from '../shared/logging/logger';
import { encodeBookmarks } from '../shared/neo4j/graphBookmarks';
import { RunningService, startService } from '../services/gateway/server';
import { ApiClient } from './support/client';
import { addNode, workspace } from './support/graphBuilders';
import { currentHarness, newKeyFor, newUser, TEST_ENV } from './support/harness';
import { testRedis } from './support/redisSupport';

const TOKEN = /^[A-Za-z0-9_-]+$/;

describe('X-Graph-Bookmark: read-your-writes across processes', function () {
  this.timeout(60_000);
  let other: RunningService | undefined;

  before(async () => {
    const config = currentHarness().config;
    const routed = config.neo4j.uri.replace(/^bolt:/, 'neo4j:');
    expect(routed).to.match(/^neo4j:\/\//);
    other = await startService(
      loadConfigWith({ ...TEST_ENV, NEO4J_URI: routed }),
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

  it('a write through one process (routing neo4j:// URI) is seen by a read through another that sends its token', async () => {
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
    // another key of the owner (the gateway remembers nothing for it) sends the token along
    const reader = await newKeyFor(user, {});
    expect(reader.keyId).to.not.equal(user.keyId);
    const read = await reader.api.get(`/v1/branches/${w.branchId}/graph`, {
      headers: { 'X-Graph-Bookmark': token },
    });
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

  it('refuses a token it did not issue with the 422 array form, and an unknown bookmark too', async () => {
    const w = await workspace(await newUser());
    for (const token of ['not a token', encodeBookmarks(['FB:nonsense'])]) {
      const res = await w.user.api.get(`/v1/branches/${w.branchId}/graph`, {
        headers: { 'X-Graph-Bookmark': token },
      });
      expect(res.status, token).to.equal(422);
      expect(res.body.detail, token).to.be.an('array');
    }
  });
});
