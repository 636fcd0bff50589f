/** Projects. */
import { expect } from 'chai';
import { currentHarness, newKeyFor, newUser, uniqueName, grant } from './support/harness';

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('projects', () => {
  describe('POST /v1/projects', () => {
    it('creates a project with its main branch and answers 201 with defaults', async () => {
      const alice = await newUser();
      const name = uniqueName();
      const res = await alice.api.post('/v1/projects', { name: `  ${name}  ` });
      expect(res.status).to.equal(201);
      expect(res.body.project.name).to.equal(name); // stored trimmed
      expect(res.body.project.intent).to.equal('cli');
      expect(res.body.project.language).to.equal('python');
      expect(res.body.project.archived).to.equal(false);
      expect(res.body.project.graph_schema_version).to.equal(6);
      expect(res.body.project.created_at).to.match(TIMESTAMP);
      expect(res.body.project.last_opened_at).to.equal(null);
      expect(res.body.main_branch.version).to.equal(0);
      expect(res.body.version).to.equal('1.0.0');
      const graph = await alice.api.get(`/v1/graph/${res.body.project.id}`);
      expect(graph.status).to.equal(200);
      expect(graph.body.branch).to.deep.equal(res.body.main_branch);
    });

    it('accepts allowed language and intent values', async () => {
      const alice = await newUser();
      const res = await alice.api.post('/v1/projects', {
        name: uniqueName(),
        language: 'rust',
        intent: 'service',
      });
      expect(res.status).to.equal(201);
      expect(res.body.project.language).to.equal('rust');
      expect(res.body.project.intent).to.equal('service');
    });

    it('drops unknown keys silently', async () => {
      const alice = await newUser();
      const res = await alice.api.post('/v1/projects', { name: uniqueName(), colour: 'blue' });
      expect(res.status).to.equal(201);
      expect(res.body.project).to.not.have.property('colour');
    });

    for (const [label, body] of [
      ['a blank name', { name: '   ' }],
      ['an empty name', { name: '' }],
      ['a missing name', {}],
      ['a name over 200 characters', { name: 'x'.repeat(201) }],
      ['a non-string name', { name: 42 }],
    ] as const) {
      it(`refuses ${label} with 422 invalid_name (object form)`, async () => {
        const alice = await newUser();
        const res = await alice.api.post('/v1/projects', body);
        expect(res.status).to.equal(422);
        expect(res.body.detail.code).to.equal('invalid_name');
        expect(res.body.detail.message).to.be.a('string');
      });
    }

    it('accepts a name of exactly 200 characters', async () => {
      const alice = await newUser();
      const res = await alice.api.post('/v1/projects', {
        name: 'n'.repeat(192) + uniqueName('').slice(0, 8),
      });
      expect(res.status).to.equal(201);
    });

    it('counts characters, not UTF-16 units: 150 emoji make a 150-character name', async () => {
      const alice = await newUser();
      const name = '😀'.repeat(150);
      const res = await alice.api.post('/v1/projects', { name });
      expect(res.status).to.equal(201);
      const renamed = await alice.api.patch(`/v1/projects/${res.body.project.id}`, {
        name: `${name}!`,
      });
      expect(renamed.status).to.equal(200);
      const fork = await alice.api.post(`/v1/projects/${res.body.project.id}/branches`, {
        name: '🌿'.repeat(100),
      });
      expect(fork.status).to.equal(201);
      const tooLong = await alice.api.post(`/v1/projects/${res.body.project.id}/branches`, {
        name: '🌿'.repeat(101),
      });
      expect(tooLong.status).to.equal(422);
    });

    it('refuses an unsupported language with 422 unsupported_language', async () => {
      const alice = await newUser();
      const res = await alice.api.post('/v1/projects', { name: uniqueName(), language: 'cobol' });
      expect(res.status).to.equal(422);
      expect(res.body.detail.code).to.equal('unsupported_language');
    });

    it('refuses an unsupported intent with 422 unsupported_intent', async () => {
      const alice = await newUser();
      const res = await alice.api.post('/v1/projects', {
        name: uniqueName(),
        intent: 'x'.repeat(41),
      });
      expect(res.status).to.equal(422);
      expect(res.body.detail.code).to.equal('unsupported_intent');
    });

    it('refuses a duplicate active name case-insensitively with 409 name_taken', async () => {
      const alice = await newUser();
      const name = uniqueName();
      expect((await alice.api.post('/v1/projects', { name })).status).to.equal(201);
      const res = await alice.api.post('/v1/projects', { name: name.toUpperCase() });
      expect(res.status).to.equal(409);
      expect(res.body.detail.code).to.equal('name_taken');
    });

    it('lets two users use the same name', async () => {
      const [alice, bob] = [await newUser(), await newUser()];
      const name = uniqueName();
      expect((await alice.api.post('/v1/projects', { name })).status).to.equal(201);
      expect((await bob.api.post('/v1/projects', { name })).status).to.equal(201);
    });

    it('keeps names unique under concurrent creates (exactly one wins)', async () => {
      const alice = await newUser();
      const name = uniqueName();
      const results = await Promise.all(
        Array.from({ length: 8 }, () => alice.api.post('/v1/projects', { name })),
      );
      const statuses = results.map((r) => r.status).sort();
      expect(statuses.filter((s) => s === 201)).to.have.length(1);
      expect(statuses.filter((s) => s === 409)).to.have.length(7);
    });

    it('enforces the project cap, counting archived projects (409 project_limit_reached)', async () => {
      const alice = await newUser();
      const limit = currentHarness().config.limits.projectLimit;
      const ids: string[] = [];
      for (let i = 0; i < limit; i++) {
        const res = await alice.api.post('/v1/projects', { name: uniqueName() });
        expect(res.status).to.equal(201);
        ids.push(res.body.project.id);
      }
      await alice.api.patch(`/v1/projects/${ids[0]}`, { archived: true });
      const over = await alice.api.post('/v1/projects', { name: uniqueName() });
      expect(over.status).to.equal(409);
      expect(over.body.detail.code).to.equal('project_limit_reached');
      expect((await alice.api.delete(`/v1/projects/${ids[0]}`)).status).to.equal(200);
      expect((await alice.api.post('/v1/projects', { name: uniqueName() })).status).to.equal(201);
    });

    it('holds the cap under concurrent creates', async () => {
      const alice = await newUser();
      const limit = currentHarness().config.limits.projectLimit;
      const results = await Promise.all(
        Array.from({ length: limit + 4 }, () =>
          alice.api.post('/v1/projects', { name: uniqueName() }),
        ),
      );
      expect(results.filter((r) => r.status === 201)).to.have.length(limit);
      expect(results.filter((r) => r.status === 409)).to.have.length(4);
    });

    it('needs graph:write (403 insufficient_scope)', async () => {
      const reader = await newUser({ scopes: [] });
      const res = await reader.api.post('/v1/projects', { name: uniqueName() });
      expect(res.status).to.equal(403);
      expect(res.body.detail.code).to.equal('insufficient_scope');
    });

    it('answers a malformed JSON body with the object form, validation_error', async () => {
      const alice = await newUser();
      const res = await alice.api.post('/v1/projects', undefined, { raw: '{"name": ' });
      expect(res.status).to.equal(422);
      expect(res.body.detail.code).to.equal('validation_error');
      expect(res.body.detail.message).to.contain('not valid JSON');
    });
  });

  describe('a key limited to some projects', () => {
    it('may not create, import, rename or restore a project (403 key_limited_to_projects): name_taken would tell it the names of the others', async () => {
      const alice = await newUser();
      const hidden = uniqueName('hidden');
      await alice.api.post('/v1/projects', { name: hidden });
      const seen = (await alice.api.post('/v1/projects', { name: uniqueName() })).body.project;
      const narrow = await newKeyFor(alice, { projects: [seen.id] });
      const file = { schema_version: 6, project_name: hidden, nodes: [], edges: [] };
      const attempts = [
        await narrow.api.post('/v1/projects', { name: hidden }),
        await narrow.api.post('/v1/projects', { name: uniqueName() }),
        await narrow.api.post('/v1/projects/import', file),
        await narrow.api.post('/v1/projects/import', { ...file, project_name: uniqueName() }),
        await narrow.api.patch(`/v1/projects/${seen.id}`, { name: hidden }),
        await narrow.api.patch(`/v1/projects/${seen.id}`, { name: uniqueName() }),
      ];
      for (const res of attempts) {
        expect(res.status, JSON.stringify(res.body)).to.equal(403);
        expect(res.body.detail.code).to.equal('key_limited_to_projects');
      }
      // a clashing name and a free one are refused alike: nothing tells them apart
      expect(attempts[0].body).to.deep.equal(attempts[1].body);
      // archiving changes no name; restoring checks the name again, so it is refused too
      const archived = await narrow.api.patch(`/v1/projects/${seen.id}`, { archived: true });
      expect(archived.status).to.equal(200);
      const restored = await narrow.api.patch(`/v1/projects/${seen.id}`, { archived: false });
      expect(restored.status).to.equal(403);
      expect(restored.body.detail.code).to.equal('key_limited_to_projects');
      // a key for all of alice's projects still may; nothing was created or renamed
      const back = await alice.api.patch(`/v1/projects/${seen.id}`, { archived: false });
      expect(back.status).to.equal(200);
      const all = (await alice.api.get('/v1/projects')).body.projects;
      expect(all.map((p: { name: string }) => p.name)).to.have.members([hidden, seen.name]);
    });
  });

  describe('GET /v1/projects', () => {
    it('lists own projects newest-updated first, hides archived unless asked', async () => {
      const alice = await newUser();
      const a = (await alice.api.post('/v1/projects', { name: uniqueName() })).body.project;
      const b = (await alice.api.post('/v1/projects', { name: uniqueName() })).body.project;
      await alice.api.patch(`/v1/projects/${a.id}`, { archived: true });
      const list = await alice.api.get('/v1/projects');
      expect(list.status).to.equal(200);
      expect(list.body.projects.map((p: { id: string }) => p.id)).to.deep.equal([b.id]);
      const all = await alice.api.get('/v1/projects?include_archived=true');
      expect(all.body.projects.map((p: { id: string }) => p.id)).to.deep.equal([a.id, b.id]);
    });

    it('answers an empty list normally', async () => {
      const alice = await newUser();
      const list = await alice.api.get('/v1/projects');
      expect(list.status).to.equal(200);
      expect(list.body.projects).to.deep.equal([]);
    });

    it('honours limit and refuses limit over 200 or under 1 (422 array form)', async () => {
      const alice = await newUser();
      await alice.api.post('/v1/projects', { name: uniqueName() });
      await alice.api.post('/v1/projects', { name: uniqueName() });
      expect((await alice.api.get('/v1/projects?limit=1')).body.projects).to.have.length(1);
      for (const bad of ['201', '0', 'abc']) {
        const res = await alice.api.get(`/v1/projects?limit=${bad}`);
        expect(res.status).to.equal(422);
        expect(res.body.detail[0].loc).to.deep.equal(['query', 'limit']);
      }
    });

    it('shows projects shared with the caller, filtered by the key allowlist', async () => {
      const owner = await newUser();
      const bob = await newUser();
      const p1 = (await owner.api.post('/v1/projects', { name: uniqueName() })).body.project;
      const p2 = (await owner.api.post('/v1/projects', { name: uniqueName() })).body.project;
      await grant(p1.id, bob, 'viewer');
      await grant(p2.id, bob, 'editor');
      const ids = (await bob.api.get('/v1/projects')).body.projects.map(
        (p: { id: string }) => p.id,
      );
      expect(ids).to.have.members([p1.id, p2.id]);
      const narrow = await newKeyFor(bob, { projects: [p2.id] });
      const narrowed = (await narrow.api.get('/v1/projects')).body.projects.map(
        (p: { id: string }) => p.id,
      );
      expect(narrowed).to.deep.equal([p2.id]);
      expect((await narrow.api.get(`/v1/graph/${p1.id}`)).status).to.equal(404);
    });
  });

  describe('PATCH /v1/projects/{id}', () => {
    it('renames and updates updated_at; no branch data in the answer', async () => {
      const alice = await newUser();
      const p = (await alice.api.post('/v1/projects', { name: uniqueName() })).body.project;
      const name = uniqueName();
      const res = await alice.api.patch(`/v1/projects/${p.id}`, { name });
      expect(res.status).to.equal(200);
      expect(res.body.project.name).to.equal(name);
      expect(res.body).to.have.keys('project', 'version');
      expect(res.body.project.updated_at >= p.updated_at).to.equal(true);
    });

    it('archives and restores', async () => {
      const alice = await newUser();
      const p = (await alice.api.post('/v1/projects', { name: uniqueName() })).body.project;
      expect(
        (await alice.api.patch(`/v1/projects/${p.id}`, { archived: true })).body.project.archived,
      ).to.equal(true);
      expect((await alice.api.get(`/v1/graph/${p.id}`)).status).to.equal(200); // still addressable
      expect(
        (await alice.api.patch(`/v1/projects/${p.id}`, { archived: false })).body.project.archived,
      ).to.equal(false);
    });

    it('refuses an empty body with 422 no_fields', async () => {
      const alice = await newUser();
      const p = (await alice.api.post('/v1/projects', { name: uniqueName() })).body.project;
      const res = await alice.api.patch(`/v1/projects/${p.id}`, {});
      expect(res.status).to.equal(422);
      expect(res.body.detail.code).to.equal('no_fields');
    });

    it('refuses a rename onto another active name (409 name_taken), and a restore that would clash', async () => {
      const alice = await newUser();
      const name = uniqueName();
      const a = (await alice.api.post('/v1/projects', { name })).body.project;
      const b = (await alice.api.post('/v1/projects', { name: uniqueName() })).body.project;
      expect(
        (await alice.api.patch(`/v1/projects/${b.id}`, { name: name.toUpperCase() })).body.detail
          .code,
      ).to.equal('name_taken');
      await alice.api.patch(`/v1/projects/${a.id}`, { archived: true });
      const c = await alice.api.post('/v1/projects', { name }); // archived frees the name
      expect(c.status).to.equal(201);
      const restore = await alice.api.patch(`/v1/projects/${a.id}`, { archived: false });
      expect(restore.status).to.equal(409);
      expect(restore.body.detail.code).to.equal('name_taken');
    });

    it('rejects wrong types with the 422 array form', async () => {
      const alice = await newUser();
      const p = (await alice.api.post('/v1/projects', { name: uniqueName() })).body.project;
      const res = await alice.api.patch(`/v1/projects/${p.id}`, { archived: 'yes' });
      expect(res.status).to.equal(422);
      expect(res.body.detail[0].loc).to.deep.equal(['body', 'archived']);
    });

    it('answers non-owners (even editors) with the 404 of a missing project', async () => {
      const owner = await newUser();
      const editor = await newUser();
      const p = (await owner.api.post('/v1/projects', { name: uniqueName() })).body.project;
      await grant(p.id, editor, 'editor');
      const res = await editor.api.patch(`/v1/projects/${p.id}`, { name: uniqueName() });
      const missing = await editor.api.patch(`/v1/projects/00000000-0000-4000-8000-000000000000`, {
        name: 'x',
      });
      expect(res.status).to.equal(404);
      expect(res.body).to.deep.equal(missing.body);
    });

    it('needs graph:write (403) for the owner', async () => {
      const owner = await newUser();
      const p = (await owner.api.post('/v1/projects', { name: uniqueName() })).body.project;
      const readOnly = await newKeyFor(owner, { scopes: [] });
      const res = await readOnly.api.patch(`/v1/projects/${p.id}`, { archived: true });
      expect(res.status).to.equal(403);
      expect(res.body.detail.code).to.equal('insufficient_scope');
    });
  });

  describe('DELETE /v1/projects/{id}', () => {
    it('deletes permanently: 200 {project_id, deleted, version}, then 404 everywhere', async () => {
      const alice = await newUser();
      const p = (await alice.api.post('/v1/projects', { name: uniqueName() })).body.project;
      const branch = (await alice.api.post(`/v1/projects/${p.id}/branches`, { name: 'work' })).body
        .branch;
      const res = await alice.api.delete(`/v1/projects/${p.id}`);
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({ project_id: p.id, deleted: true, version: '1.0.0' });
      expect((await alice.api.get(`/v1/graph/${p.id}`)).status).to.equal(404);
      expect((await alice.api.get(`/v1/branches/${branch.id}/graph`)).status).to.equal(404);
      expect((await alice.api.delete(`/v1/projects/${p.id}`)).status).to.equal(404);
      const list = await alice.api.get('/v1/projects?include_archived=true');
      expect(list.body.projects.map((x: { id: string }) => x.id)).to.not.include(p.id);
    });

    it('needs project:delete, which graph:write does not imply (403)', async () => {
      const alice = await newUser({ scopes: ['graph:write'] });
      const p = (await alice.api.post('/v1/projects', { name: uniqueName() })).body.project;
      const res = await alice.api.delete(`/v1/projects/${p.id}`);
      expect(res.status).to.equal(403);
      expect(res.body.detail.code).to.equal('insufficient_scope');
    });

    it('answers non-owners with 404', async () => {
      const owner = await newUser();
      const editor = await newUser();
      const p = (await owner.api.post('/v1/projects', { name: uniqueName() })).body.project;
      await grant(p.id, editor, 'editor');
      expect((await editor.api.delete(`/v1/projects/${p.id}`)).status).to.equal(404);
    });
  });
});
