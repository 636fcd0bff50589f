/** Full-graph reads: §4.9, §4.10, §2.12, interpretations "Projects" (last_opened_at). */
import { expect } from 'chai';
import { grant, newUser, uniqueName } from './support/harness';

describe('full-graph reads (§4.9, §4.10)', () => {
  it('reads main of a new project: empty GraphResponse with the main BranchRef', async () => {
    const alice = await newUser();
    const created = (await alice.api.post('/v1/projects', { name: uniqueName() })).body;
    const res = await alice.api.get(`/v1/graph/${created.project.id}`);
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({
      branch: created.main_branch,
      edges: [],
      nodes: [],
      project_id: created.project.id,
      version: '1.0.0',
    });
  });

  it('sets last_opened_at on a full read', async () => {
    const alice = await newUser();
    const p = (await alice.api.post('/v1/projects', { name: uniqueName() })).body.project;
    expect(p.last_opened_at).to.equal(null);
    await alice.api.get(`/v1/graph/${p.id}`);
    const listed = (await alice.api.get('/v1/projects')).body.projects.find(
      (x: { id: string }) => x.id === p.id,
    );
    expect(listed.last_opened_at).to.be.a('string');
  });

  it('reads a working branch; main is visible to members, working branches only to their owner', async () => {
    const owner = await newUser();
    const viewer = await newUser();
    const created = (await owner.api.post('/v1/projects', { name: uniqueName() })).body;
    await grant(created.project.id, viewer, 'viewer');
    const branch = (
      await owner.api.post(`/v1/projects/${created.project.id}/branches`, { name: 'w' })
    ).body.branch;
    const own = await owner.api.get(`/v1/branches/${branch.id}/graph`);
    expect(own.status).to.equal(200);
    expect(own.body.branch).to.deep.equal({ id: branch.id, version: 0 });
    expect((await viewer.api.get(`/v1/branches/${created.main_branch.id}/graph`)).status).to.equal(
      200,
    );
    expect((await viewer.api.get(`/v1/graph/${created.project.id}`)).status).to.equal(200);
    expect((await viewer.api.get(`/v1/branches/${branch.id}/graph`)).status).to.equal(404);
  });

  it('answers 404 for a missing branch', async () => {
    const alice = await newUser();
    const res = await alice.api.get('/v1/branches/00000000-0000-4000-8000-000000000000/graph');
    expect(res.status).to.equal(404);
    expect(res.body.detail.code).to.equal('not_found');
  });
});
