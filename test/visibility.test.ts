/**
 * Visibility across every project route: a key whose allowlist leaves a project out, and a user
 * with no role on it, get the identical 404 of a missing project on every route; reads,
 * lists and validate need a valid key and no scope.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import type { ApiResponse } from './support/client';
import { currentHarness, newKeyFor, newUser, TestUser, uniqueName } from './support/harness';

const NOT_FOUND = /^(project|branch|node) not found$/;

async function setUp(owner: TestUser) {
  const created = await owner.api.post('/v1/projects', { name: uniqueName() });
  const projectId = created.body.project.id;
  const mainId = created.body.main_branch.id;
  const fork = await owner.api.post(`/v1/projects/${projectId}/branches`, { name: 'w' });
  return { projectId, mainId, branchId: fork.body.branch.id as string };
}

/** Every route on the project, as `caller` sends it. */
function everyRoute(
  caller: TestUser,
  ids: { projectId: string; mainId: string; branchId: string },
) {
  const { projectId, mainId, branchId } = ids;
  const node = randomUUID();
  return [
    () => caller.api.patch(`/v1/projects/${projectId}`, { name: 'x' }),
    () => caller.api.delete(`/v1/projects/${projectId}`),
    () => caller.api.post(`/v1/projects/${projectId}/branches`, { name: 'b' }),
    () => caller.api.get(`/v1/projects/${projectId}/branches`),
    () => caller.api.get(`/v1/graph/${projectId}`),
    () => caller.api.get(`/v1/graph/${projectId}/boundary/${node}`),
    () => caller.api.get(`/v1/branches/${mainId}/graph`),
    () => caller.api.get(`/v1/branches/${branchId}/graph`),
    () => caller.api.patch(`/v1/branches/${branchId}`, { name: 'x' }),
    () => caller.api.delete(`/v1/branches/${branchId}?expected_version=0`),
    () => caller.api.post(`/v1/branches/${branchId}/deltas`, { deltas: [], expected_version: 0 }),
    () => caller.api.post(`/v1/branches/${mainId}/validate`, { deltas: [] }),
    () => caller.api.get(`/v1/branches/${mainId}/subtree/${node}`),
    () => caller.api.get(`/v1/branches/${mainId}/node/${node}`),
    () => caller.api.get(`/v1/branches/${mainId}/file`),
    () => caller.api.get(`/v1/branches/${branchId}/diff`),
    () => caller.api.get(`/v1/branches/${branchId}/merge-preview`),
    () => caller.api.post(`/v1/branches/${branchId}/merge`, { expected_version: 0 }),
    () => caller.api.get(`/v1/branches/${mainId}/changes`),
    () => caller.api.get(`/v1/decisions?project_id=${projectId}`),
  ];
}

function expectHidden(res: ApiResponse<any>, label: string) {
  expect(res.status, label).to.equal(404);
  expect(Object.keys(res.body.detail).sort(), label).to.deep.equal(['code', 'message']);
  expect(res.body.detail.code, label).to.equal('not_found');
  expect(res.body.detail.message, label).to.match(NOT_FOUND);
}

describe('visibility on every project route', function () {
  this.timeout(60_000);

  it('a key whose allowlist leaves the project out gets the 404 of a missing project', async () => {
    const owner = await newUser();
    const ids = await setUp(owner);
    const elsewhere = await newKeyFor(owner, { projects: [randomUUID()] });
    const routes = everyRoute(elsewhere, ids);
    for (const [i, call] of routes.entries()) expectHidden(await call(), `route ${i}`);
    // the owner's unrestricted key still sees everything
    expect((await owner.api.get(`/v1/branches/${ids.branchId}/graph`)).status).to.equal(200);
  });

  it('a user with no role on the project gets the same 404 everywhere', async () => {
    const ids = await setUp(await newUser());
    const stranger = await newUser();
    for (const [i, call] of everyRoute(stranger, ids).entries())
      expectHidden(await call(), `route ${i}`);
  });

  it('every route answers the identical 401 without a valid credential', async () => {
    const owner = await newUser();
    const ids = await setUp(owner);
    for (const header of [undefined, 'Bearer gds_notakeynotakeynotakeynotakey']) {
      const api = currentHarness().anon.withToken(undefined);
      const caller = {
        ...owner,
        api: header ? owner.api.withToken(header.slice('Bearer '.length)) : api,
      };
      for (const [i, call] of everyRoute(caller, ids).entries()) {
        const res = await call();
        expect(res.status, `route ${i}`).to.equal(401);
        expect(res.body).to.deep.equal({ detail: 'not_authenticated' });
        expect(res.headers.get('www-authenticate')).to.equal('Bearer');
      }
    }
  });

  it('reads, lists and validate need no scope', async () => {
    const owner = await newUser();
    const ids = await setUp(owner);
    const bare = await newKeyFor(owner, { scopes: [] });
    for (const path of [
      '/v1/projects',
      `/v1/projects/${ids.projectId}/branches`,
      `/v1/graph/${ids.projectId}`,
      `/v1/branches/${ids.branchId}/graph`,
      `/v1/branches/${ids.branchId}/diff`,
      `/v1/branches/${ids.mainId}/changes`,
      `/v1/branches/${ids.mainId}/file`,
    ]) {
      expect((await bare.api.get(path)).status, path).to.equal(200);
    }
    const validate = await bare.api.post(`/v1/branches/${ids.branchId}/validate`, { deltas: [] });
    expect(validate.status).to.equal(200);
    // decisions need decisions:read
    const decisions = await bare.api.get(`/v1/decisions?project_id=${ids.projectId}`);
    expect(decisions.status).to.equal(403);
    expect(decisions.body.detail.code).to.equal('insufficient_scope');
  });
});
