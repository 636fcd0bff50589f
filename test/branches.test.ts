/** Branches. */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { currentHarness, grant, newKeyFor, newUser, TestUser, uniqueName } from './support/harness';

async function project(user: TestUser) {
  const res = await user.api.post('/v1/projects', { name: uniqueName() });
  expect(res.status).to.equal(201);
  return res.body as { project: { id: string }; main_branch: { id: string; version: number } };
}

describe('branches', () => {
  describe('POST /v1/projects/{id}/branches', () => {
    it('forks an active branch at version 0 owned by the caller (201)', async () => {
      const alice = await newUser();
      const p = await project(alice);
      const res = await alice.api.post(`/v1/projects/${p.project.id}/branches`, {
        name: ' feature ',
      });
      expect(res.status).to.equal(201);
      const b = res.body.branch;
      expect(b).to.include({
        name: 'feature',
        status: 'active',
        is_main: false,
        version: 0,
        base_main_version: 0,
      });
      expect(b.owner_id).to.equal(alice.userId);
      expect(b.project_id).to.equal(p.project.id);
      expect(b.merged_at).to.equal(null);
      expect(res.body.project_id).to.equal(p.project.id);
    });

    it('lets an editor fork and refuses a viewer (403 forbidden)', async () => {
      const owner = await newUser();
      const [editor, viewer] = [await newUser(), await newUser()];
      const p = await project(owner);
      await grant(p.project.id, editor, 'editor');
      await grant(p.project.id, viewer, 'viewer');
      expect(
        (await editor.api.post(`/v1/projects/${p.project.id}/branches`, { name: 'e' })).status,
      ).to.equal(201);
      const res = await viewer.api.post(`/v1/projects/${p.project.id}/branches`, { name: 'v' });
      expect(res.status).to.equal(403);
      expect(res.body.detail.code).to.equal('forbidden');
    });

    it('answers a non-member with 404 (identical to a missing project)', async () => {
      const owner = await newUser();
      const stranger = await newUser();
      const p = await project(owner);
      const res = await stranger.api.post(`/v1/projects/${p.project.id}/branches`, { name: 'x' });
      const missing = await stranger.api.post(
        `/v1/projects/00000000-0000-4000-8000-000000000000/branches`,
        { name: 'x' },
      );
      expect(res.status).to.equal(404);
      expect(res.body).to.deep.equal(missing.body);
    });

    it('enforces the per-caller branch limit (409 branch_limit_reached)', async () => {
      const alice = await newUser();
      const p = await project(alice);
      const limit = currentHarness().config.limits.branchLimit;
      for (let i = 0; i < limit; i++) {
        expect(
          (await alice.api.post(`/v1/projects/${p.project.id}/branches`, { name: `b${i}` })).status,
        ).to.equal(201);
      }
      const res = await alice.api.post(`/v1/projects/${p.project.id}/branches`, { name: 'over' });
      expect(res.status).to.equal(409);
      expect(res.body.detail.code).to.equal('branch_limit_reached');
      // another member has their own allowance
      const bob = await newUser();
      await grant(p.project.id, bob, 'editor');
      expect(
        (await bob.api.post(`/v1/projects/${p.project.id}/branches`, { name: 'bob' })).status,
      ).to.equal(201);
    });

    it('holds the branch limit under concurrent forks', async () => {
      const alice = await newUser();
      const p = await project(alice);
      const limit = currentHarness().config.limits.branchLimit;
      const results = await Promise.all(
        Array.from({ length: limit + 3 }, (_, i) =>
          alice.api.post(`/v1/projects/${p.project.id}/branches`, { name: `c${i}` }),
        ),
      );
      expect(results.filter((r) => r.status === 201)).to.have.length(limit);
    });

    it('refuses a duplicate active branch name case-insensitively (409 name_taken)', async () => {
      const alice = await newUser();
      const p = await project(alice);
      await alice.api.post(`/v1/projects/${p.project.id}/branches`, { name: 'Dup' });
      const res = await alice.api.post(`/v1/projects/${p.project.id}/branches`, { name: 'dup' });
      expect(res.status).to.equal(409);
      expect(res.body.detail.code).to.equal('name_taken');
    });

    for (const [label, name] of [
      ['blank', '   '],
      ['too long', 'x'.repeat(101)],
      ['with a control character', 'a\u0007b'],
      ['with DEL', 'a\u007fb'],
      ['with a C1 control character', 'a\u0085b'],
    ] as const) {
      it(`refuses a ${label} name with the 422 array form`, async () => {
        const alice = await newUser();
        const p = await project(alice);
        const res = await alice.api.post(`/v1/projects/${p.project.id}/branches`, { name });
        expect(res.status).to.equal(422);
        expect(res.body.detail[0].loc).to.deep.equal(['body', 'name']);
      });
    }

    it('name rules: 100 characters after trimming, per caller, freed by discard', async () => {
      const alice = await newUser();
      const bob = await newUser();
      const p = await project(alice);
      await grant(p.project.id, bob, 'editor');
      const fork = (user: TestUser, name: string) =>
        user.api.post(`/v1/projects/${p.project.id}/branches`, { name });
      const long = await fork(alice, `  ${'b'.repeat(100)}  `);
      expect(long.status).to.equal(201);
      expect(long.body.branch.name).to.equal('b'.repeat(100));
      // uniqueness is among the caller's own active branches
      expect((await fork(alice, 'shared')).status).to.equal(201);
      expect((await fork(bob, 'SHARED')).status).to.equal(201);
      // a discarded branch frees its name
      const gone = (await fork(alice, 'reuse')).body.branch;
      expect(
        (await alice.api.delete(`/v1/branches/${gone.id}?expected_version=0`)).status,
      ).to.equal(200);
      const again = await fork(alice, 'reuse');
      expect(again.status).to.equal(201);
      expect(again.body.branch.id).to.not.equal(gone.id);
    });

    it('a discard frees a slot under the branch limit', async () => {
      const alice = await newUser();
      const p = await project(alice);
      const limit = currentHarness().config.limits.branchLimit;
      const ids: string[] = [];
      for (let i = 0; i < limit; i++)
        ids.push(
          (await alice.api.post(`/v1/projects/${p.project.id}/branches`, { name: `b${i}` })).body
            .branch.id,
        );
      const over = await alice.api.post(`/v1/projects/${p.project.id}/branches`, { name: 'x' });
      expect(over.body.detail.code).to.equal('branch_limit_reached');
      await alice.api.delete(`/v1/branches/${ids[0]}?expected_version=0`);
      expect(
        (await alice.api.post(`/v1/projects/${p.project.id}/branches`, { name: 'x' })).status,
      ).to.equal(201);
    });

    it('refuses a missing name with the 422 array form', async () => {
      const alice = await newUser();
      const p = await project(alice);
      const res = await alice.api.post(`/v1/projects/${p.project.id}/branches`, {});
      expect(res.status).to.equal(422);
      expect(res.body.detail[0].loc).to.deep.equal(['body', 'name']);
    });

    it('refuses forks in an archived project (409 project_archived)', async () => {
      const alice = await newUser();
      const p = await project(alice);
      await alice.api.patch(`/v1/projects/${p.project.id}`, { archived: true });
      const res = await alice.api.post(`/v1/projects/${p.project.id}/branches`, { name: 'x' });
      expect(res.status).to.equal(409);
      expect(res.body.detail.code).to.equal('project_archived');
    });

    it('needs graph:write (403 insufficient_scope)', async () => {
      const alice = await newUser();
      const p = await project(alice);
      const readOnly = await newKeyFor(alice, { scopes: [] });
      const res = await readOnly.api.post(`/v1/projects/${p.project.id}/branches`, { name: 'x' });
      expect(res.status).to.equal(403);
      expect(res.body.detail.code).to.equal('insufficient_scope');
    });
  });

  describe('GET /v1/projects/{id}/branches', () => {
    it("lists only the caller's active working branches, main excluded", async () => {
      const alice = await newUser();
      const bob = await newUser();
      const p = await project(alice);
      await grant(p.project.id, bob, 'editor');
      const a1 = (await alice.api.post(`/v1/projects/${p.project.id}/branches`, { name: 'a1' }))
        .body.branch;
      const a2 = (await alice.api.post(`/v1/projects/${p.project.id}/branches`, { name: 'a2' }))
        .body.branch;
      await bob.api.post(`/v1/projects/${p.project.id}/branches`, { name: 'b1' });
      await alice.api.delete(`/v1/branches/${a2.id}?expected_version=0`);
      const res = await alice.api.get(`/v1/projects/${p.project.id}/branches`);
      expect(res.status).to.equal(200);
      expect(res.body.branches.map((b: { id: string }) => b.id)).to.deep.equal([a1.id]);
      expect(res.body.project_id).to.equal(p.project.id);
    });

    it('answers 404 for a missing or invisible project', async () => {
      const alice = await newUser();
      const stranger = await newUser();
      const p = await project(alice);
      expect((await stranger.api.get(`/v1/projects/${p.project.id}/branches`)).status).to.equal(
        404,
      );
    });
  });

  describe('PATCH /v1/branches/{id}', () => {
    it('renames a working branch', async () => {
      const alice = await newUser();
      const p = await project(alice);
      const b = (await alice.api.post(`/v1/projects/${p.project.id}/branches`, { name: 'old' }))
        .body.branch;
      const res = await alice.api.patch(`/v1/branches/${b.id}`, { name: 'new' });
      expect(res.status).to.equal(200);
      expect(res.body.branch.name).to.equal('new');
      expect(res.body.branch.version).to.equal(0);
    });

    it('refuses main with 409 main_not_writable', async () => {
      const alice = await newUser();
      const p = await project(alice);
      const res = await alice.api.patch(`/v1/branches/${p.main_branch.id}`, { name: 'x' });
      expect(res.status).to.equal(409);
      expect(res.body.detail.code).to.equal('main_not_writable');
      // main is the project owner's: a member who is not the owner gets the 404 of a branch it cannot see
      const editor = await newUser();
      await grant(p.project.id, editor, 'editor');
      const other = await editor.api.patch(`/v1/branches/${p.main_branch.id}`, { name: 'x' });
      expect(other.status).to.equal(404);
      expect(other.body).to.deep.equal({
        detail: { code: 'not_found', message: 'branch not found' },
      });
    });

    it('refuses a discarded branch with 409 branch_not_active', async () => {
      const alice = await newUser();
      const p = await project(alice);
      const b = (await alice.api.post(`/v1/projects/${p.project.id}/branches`, { name: 'b' })).body
        .branch;
      await alice.api.delete(`/v1/branches/${b.id}?expected_version=0`);
      const res = await alice.api.patch(`/v1/branches/${b.id}`, { name: 'x' });
      expect(res.status).to.equal(409);
      expect(res.body.detail.code).to.equal('branch_not_active');
    });

    it("answers others (even the project owner) with 404 for someone's branch", async () => {
      const owner = await newUser();
      const editor = await newUser();
      const p = await project(owner);
      await grant(p.project.id, editor, 'editor');
      const b = (await editor.api.post(`/v1/projects/${p.project.id}/branches`, { name: 'e' })).body
        .branch;
      const res = await owner.api.patch(`/v1/branches/${b.id}`, { name: 'x' });
      const missing = await owner.api.patch(`/v1/branches/00000000-0000-4000-8000-000000000000`, {
        name: 'x',
      });
      expect(res.status).to.equal(404);
      expect(res.body).to.deep.equal(missing.body);
    });

    it('refuses a clash with another active branch (409 name_taken)', async () => {
      const alice = await newUser();
      const p = await project(alice);
      await alice.api.post(`/v1/projects/${p.project.id}/branches`, { name: 'one' });
      const two = (await alice.api.post(`/v1/projects/${p.project.id}/branches`, { name: 'two' }))
        .body.branch;
      const res = await alice.api.patch(`/v1/branches/${two.id}`, { name: 'ONE' });
      expect(res.status).to.equal(409);
      expect(res.body.detail.code).to.equal('name_taken');
    });

    it('needs graph:write (403)', async () => {
      const alice = await newUser();
      const p = await project(alice);
      const b = (await alice.api.post(`/v1/projects/${p.project.id}/branches`, { name: 'b' })).body
        .branch;
      const readOnly = await newKeyFor(alice, { scopes: [] });
      expect((await readOnly.api.patch(`/v1/branches/${b.id}`, { name: 'x' })).status).to.equal(
        403,
      );
    });
  });

  describe('renaming and discarding recheck the role and the project', () => {
    it('refuses an owner of the branch who is now only a viewer (403 forbidden)', async () => {
      const owner = await newUser();
      const bob = await newUser();
      const p = await project(owner);
      await grant(p.project.id, bob, 'editor');
      const b = (await bob.api.post(`/v1/projects/${p.project.id}/branches`, { name: 'b' })).body
        .branch;
      await grant(p.project.id, bob, 'viewer');
      const renamed = await bob.api.patch(`/v1/branches/${b.id}`, { name: 'x' });
      const discarded = await bob.api.delete(`/v1/branches/${b.id}?expected_version=0`);
      for (const res of [renamed, discarded]) {
        expect(res.status, JSON.stringify(res.body)).to.equal(403);
        expect(res.body.detail.code).to.equal('forbidden');
      }
      const branches = (await bob.api.get(`/v1/projects/${p.project.id}/branches`)).body.branches;
      expect(branches.map((x: { id: string; name: string }) => [x.id, x.name])).to.deep.equal([
        [b.id, 'b'],
      ]);
    });

    it('refuses a branch of an archived project (409 project_archived)', async () => {
      const alice = await newUser();
      const p = await project(alice);
      const b = (await alice.api.post(`/v1/projects/${p.project.id}/branches`, { name: 'b' })).body
        .branch;
      await alice.api.patch(`/v1/projects/${p.project.id}`, { archived: true });
      const renamed = await alice.api.patch(`/v1/branches/${b.id}`, { name: 'x' });
      const discarded = await alice.api.delete(`/v1/branches/${b.id}?expected_version=0`);
      for (const res of [renamed, discarded]) {
        expect(res.status, JSON.stringify(res.body)).to.equal(409);
        expect(res.body.detail.code).to.equal('project_archived');
      }
      const branches = (await alice.api.get(`/v1/projects/${p.project.id}/branches`)).body.branches;
      expect(
        branches.map((x: { status: string; name: string }) => [x.name, x.status]),
      ).to.deep.equal([['b', 'active']]);
    });
  });

  describe('DELETE /v1/branches/{id}', () => {
    it('discards with the matching version; answers the branch with status discarded', async () => {
      const alice = await newUser();
      const p = await project(alice);
      const b = (await alice.api.post(`/v1/projects/${p.project.id}/branches`, { name: 'b' })).body
        .branch;
      const res = await alice.api.delete(`/v1/branches/${b.id}?expected_version=0`);
      expect(res.status).to.equal(200);
      expect(res.body.branch.status).to.equal('discarded');
      expect(res.body.branch.id).to.equal(b.id);
      const again = await alice.api.delete(`/v1/branches/${b.id}?expected_version=0`);
      expect(again.status).to.equal(409);
      expect(again.body.detail.code).to.equal('branch_not_active');
    });

    it('version_conflict carries the version the branch has moved to', async () => {
      const alice = await newUser();
      const p = await project(alice);
      const b = (await alice.api.post(`/v1/projects/${p.project.id}/branches`, { name: 'b' })).body
        .branch;
      for (let v = 0; v < 2; v++) {
        const res = await alice.api.post(`/v1/branches/${b.id}/deltas`, {
          deltas: [{ type: 'add_node', node: { id: randomUUID(), data: {} } }],
          expected_version: v,
        });
        expect(res.status).to.equal(200);
      }
      const stale = await alice.api.delete(`/v1/branches/${b.id}?expected_version=1`);
      expect(stale.status).to.equal(409);
      expect(stale.body.detail).to.include({ code: 'version_conflict', current_version: 2 });
      const ok = await alice.api.delete(`/v1/branches/${b.id}?expected_version=2`);
      expect(ok.body.branch).to.include({ status: 'discarded', version: 2 });
    });

    it('refuses a stale version with 409 version_conflict carrying current_version', async () => {
      const alice = await newUser();
      const p = await project(alice);
      const b = (await alice.api.post(`/v1/projects/${p.project.id}/branches`, { name: 'b' })).body
        .branch;
      const res = await alice.api.delete(`/v1/branches/${b.id}?expected_version=7`);
      expect(res.status).to.equal(409);
      expect(res.body.detail.code).to.equal('version_conflict');
      expect(res.body.detail.current_version).to.equal(0);
    });

    it('refuses main with 409 main_not_writable', async () => {
      const alice = await newUser();
      const p = await project(alice);
      const res = await alice.api.delete(`/v1/branches/${p.main_branch.id}?expected_version=0`);
      expect(res.status).to.equal(409);
      expect(res.body.detail.code).to.equal('main_not_writable');
      const editor = await newUser();
      await grant(p.project.id, editor, 'editor');
      const other = await editor.api.delete(`/v1/branches/${p.main_branch.id}?expected_version=0`);
      expect(other.status).to.equal(404);
      expect(other.body).to.deep.equal({
        detail: { code: 'not_found', message: 'branch not found' },
      });
    });

    it('requires expected_version (422 array form)', async () => {
      const alice = await newUser();
      const p = await project(alice);
      const b = (await alice.api.post(`/v1/projects/${p.project.id}/branches`, { name: 'b' })).body
        .branch;
      const res = await alice.api.delete(`/v1/branches/${b.id}`);
      expect(res.status).to.equal(422);
      expect(res.body.detail[0].loc).to.deep.equal(['query', 'expected_version']);
    });

    it('answers a non-owner with 404', async () => {
      const alice = await newUser();
      const bob = await newUser();
      const p = await project(alice);
      await grant(p.project.id, bob, 'editor');
      const b = (await alice.api.post(`/v1/projects/${p.project.id}/branches`, { name: 'b' })).body
        .branch;
      expect((await bob.api.delete(`/v1/branches/${b.id}?expected_version=0`)).status).to.equal(
        404,
      );
    });

    it('needs graph:write (403 insufficient_scope); the branch stays active', async () => {
      const alice = await newUser();
      const p = await project(alice);
      const b = (await alice.api.post(`/v1/projects/${p.project.id}/branches`, { name: 'b' })).body
        .branch;
      const readOnly = await newKeyFor(alice, { scopes: [] });
      const res = await readOnly.api.delete(`/v1/branches/${b.id}?expected_version=0`);
      expect(res.status).to.equal(403);
      expect(res.body.detail.code).to.equal('insufficient_scope');
      const listed = await alice.api.get(`/v1/projects/${p.project.id}/branches`);
      expect(listed.body.branches.map((x: any) => x.id)).to.deep.equal([b.id]);
    });

    it('exactly one of concurrent discards wins', async () => {
      const alice = await newUser();
      const p = await project(alice);
      const b = (await alice.api.post(`/v1/projects/${p.project.id}/branches`, { name: 'b' })).body
        .branch;
      const results = await Promise.all(
        Array.from({ length: 8 }, () =>
          alice.api.delete(`/v1/branches/${b.id}?expected_version=0`),
        ),
      );
      expect(results.filter((r) => r.status === 200)).to.have.length(1);
      expect(results.filter((r) => r.status === 409)).to.have.length(7);
    });
  });
});
