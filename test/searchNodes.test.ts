/**
 * The name search (searchNodes, searchMainNodes) through HTTP: nodes at any depth
 * whose name contains the text, case-insensitively, names starting with it first,
 * each with its ancestors' ids from the top level down; `limit` and `truncated`;
 * 422 for an empty or too long text; the same 404 as a missing branch for a branch
 * the caller cannot see. Every response is checked against the OpenAPI document by
 * the client.
 */
import { expect } from 'chai';
import { uuid, workspace, Workspace } from './support/graphBuilders';
import { grant, newUser, TestUser } from './support/harness';
import { build, Built, expectNotFound } from './support/scopedReadSupport';

type Match = { id: string; name: string; kind: string; parent_id: string | null; path: string[] };

describe('name search (searchNodes, searchMainNodes)', function () {
  this.timeout(60_000);
  let w: Workspace;
  let n: Record<'app' | 'core' | 'fetch' | 'prefetch' | 'db' | 'other', Built>;
  const search = (branchId: string, query: string, user: TestUser = w.user) =>
    user.api.get(`/v1/branches/${branchId}/nodes/search?${query}`);

  before(async () => {
    w = await workspace(await newUser());
    n = await build(w, [
      ['app', 'app', null, 'boundary'],
      ['core', 'core', 'app', 'boundary'],
      ['fetch', 'FetchOrders', 'core'],
      ['prefetch', 'prefetchCache', null],
      ['db', 'orderDb', 'app', 'state'],
      ['other', 'unrelated', null],
    ]);
  });

  it('finds nodes at any depth by a case-insensitive substring, prefixes first, with their ancestor ids', async () => {
    const res = await search(w.branchId, 'q=FETCH');
    expect(res.status).to.equal(200);
    expect(res.body.branch).to.deep.equal({ id: w.branchId, version: w.version });
    expect(res.body.project_id).to.equal(w.projectId);
    expect(res.body.truncated).to.equal(false);
    const found: Match[] = res.body.nodes;
    // "FetchOrders" starts with the text; "prefetchCache" only contains it
    expect(found).to.deep.equal([
      {
        id: n.fetch.id,
        name: 'FetchOrders',
        kind: 'behavior',
        parent_id: n.core.id,
        path: [n.app.id, n.core.id],
      },
      { id: n.prefetch.id, name: 'prefetchCache', kind: 'behavior', parent_id: null, path: [] },
    ]);
    const orders = await search(w.branchId, 'q=order');
    expect(orders.body.nodes.map((m: Match) => m.name)).to.deep.equal(['orderDb', 'FetchOrders']);
    expect(orders.body.nodes[0]).to.deep.include({ kind: 'state', path: [n.app.id] });
    const none = await search(w.branchId, 'q=zzz-no-such-name');
    expect(none.status).to.equal(200);
    expect(none.body.nodes).to.deep.equal([]);
    expect(none.body.truncated).to.equal(false);
  });

  it('answers at most `limit` nodes and says when more match', async () => {
    const one = await search(w.branchId, 'q=e&limit=1');
    expect(one.status).to.equal(200);
    expect(one.body.nodes).to.have.length(1);
    expect(one.body.truncated).to.equal(true);
    const all = await search(w.branchId, 'q=e&limit=50');
    // every name but "app" contains an "e"
    expect(all.body.nodes).to.have.length(5);
    expect(all.body.truncated).to.equal(false);
    const exact = await search(w.branchId, 'q=e&limit=5');
    expect(exact.body.nodes).to.have.length(5);
    expect(exact.body.truncated).to.equal(false);
    expect((await search(w.branchId, 'q=e&limit=0')).status).to.equal(422);
    expect((await search(w.branchId, 'q=e&limit=51')).status).to.equal(422);
  });

  it('is a 422 for an empty, missing or too long text', async () => {
    for (const query of ['q=', '', `q=${'a'.repeat(201)}`]) {
      const res = await search(w.branchId, query);
      expect(res.status, query.slice(0, 20)).to.equal(422);
    }
    const longest = await search(w.branchId, `q=${'a'.repeat(200)}`);
    expect(longest.status).to.equal(200);
    expect(longest.body.nodes).to.deep.equal([]);
  });

  it('is the same 404 as a missing branch for another user and for an unknown id', async () => {
    expectNotFound(await search(w.branchId, 'q=fetch', await newUser()));
    expectNotFound(await search(uuid(), 'q=fetch'));
  });

  it('searches main by project id (searchMainNodes) for a member, 404 for a non-member', async () => {
    const viewer = await newUser({ scopes: [] });
    const onMain = (user: TestUser, projectId = w.projectId) =>
      user.api.get(`/v1/graph/${projectId}/nodes/search?q=fetch`);
    const before = await onMain(w.user);
    expect(before.status).to.equal(200);
    expect(before.body.branch.id).to.equal(w.mainId);
    expect(before.body.nodes).to.deep.equal([]);

    const merged = await w.user.api.post(`/v1/branches/${w.branchId}/merge`, {
      expected_version: w.version,
    });
    expect(merged.status, JSON.stringify(merged.body)).to.equal(200);
    expectNotFound(await onMain(viewer));
    await grant(w.projectId, viewer, 'viewer');
    const res = await onMain(viewer);
    expect(res.status).to.equal(200);
    expect(res.body.branch.id).to.equal(w.mainId);
    expect(res.body.nodes.map((m: Match) => [m.id, m.path])).to.deep.equal([
      [n.fetch.id, [n.app.id, n.core.id]],
      [n.prefetch.id, []],
    ]);
    const byBranch = await search(w.mainId, 'q=fetch', viewer);
    expect(byBranch.body).to.deep.equal(res.body);
    expectNotFound(await onMain(w.user, uuid()));
  });
});
