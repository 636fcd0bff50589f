/** The operator CLI: keys create|revoke, members add. */
import { expect } from 'chai';
import { currentHarness, uniqueName } from './support/harness';
import { graphctl } from './support/graphctl';

describe('graphctl (operator interface)', function () {
  this.timeout(60_000);

  it('keys create prints {token, key_id, user_id}; the key works; keys revoke makes it answer 401', async () => {
    const user = uniqueName('op');
    const created = await graphctl(
      'keys',
      'create',
      '--user',
      user,
      '--scopes',
      'graph:write,project:delete',
    );
    expect(created.code, created.stderr).to.equal(0);
    const out = JSON.parse(created.stdout);
    expect(out).to.have.keys('token', 'key_id', 'user_id');
    const api = currentHarness().anon.withToken(out.token);
    expect((await api.post('/v1/projects', { name: uniqueName() })).status).to.equal(201);

    const again = JSON.parse(
      (await graphctl('keys', 'create', '--user', user, '--scopes', '')).stdout,
    );
    expect(again.user_id).to.equal(out.user_id); // same user, new key
    expect(again.key_id).to.not.equal(out.key_id);

    const revoked = await graphctl('keys', 'revoke', '--key', out.key_id);
    expect(revoked.code, revoked.stderr).to.equal(0);
    expect(JSON.parse(revoked.stdout)).to.include({ key_id: out.key_id, revoked: true });
    expect((await api.get('/v1/projects')).status).to.equal(401);
  });

  it('keys create --projects sets an allowlist', async () => {
    const ownerName = uniqueName('op');
    const owner = JSON.parse(
      (await graphctl('keys', 'create', '--user', ownerName, '--scopes', 'graph:write')).stdout,
    );
    const api = currentHarness().anon.withToken(owner.token);
    await api.post('/v1/projects', { name: uniqueName() });
    const p2 = (await api.post('/v1/projects', { name: uniqueName() })).body.project;
    const narrow = await graphctl(
      'keys',
      'create',
      '--user',
      ownerName,
      '--scopes',
      '',
      '--projects',
      p2.id,
    );
    expect(narrow.code, narrow.stderr).to.equal(0);
    const listed = await currentHarness()
      .anon.withToken(JSON.parse(narrow.stdout).token)
      .get('/v1/projects');
    expect(listed.body.projects.map((p: { id: string }) => p.id)).to.deep.equal([p2.id]);
  });

  it('members add grants a role that the member can use', async () => {
    const ownerName = uniqueName('op');
    const owner = JSON.parse(
      (await graphctl('keys', 'create', '--user', ownerName, '--scopes', 'graph:write')).stdout,
    );
    const p = (
      await currentHarness()
        .anon.withToken(owner.token)
        .post('/v1/projects', { name: uniqueName() })
    ).body.project;
    const memberName = uniqueName('member');
    const member = JSON.parse(
      (await graphctl('keys', 'create', '--user', memberName, '--scopes', 'graph:write')).stdout,
    );
    const api = currentHarness().anon.withToken(member.token);
    expect((await api.get(`/v1/graph/${p.id}`)).status).to.equal(404);
    const added = await graphctl(
      'members',
      'add',
      '--project',
      p.id,
      '--user',
      memberName,
      '--role',
      'viewer',
    );
    expect(added.code, added.stderr).to.equal(0);
    expect(JSON.parse(added.stdout)).to.include({
      project_id: p.id,
      user_id: member.user_id,
      role: 'viewer',
    });
    expect((await api.get(`/v1/graph/${p.id}`)).status).to.equal(200);
    expect((await api.post(`/v1/projects/${p.id}/branches`, { name: 'x' })).status).to.equal(403);
    await graphctl('members', 'add', '--project', p.id, '--user', memberName, '--role', 'editor');
    expect((await api.post(`/v1/projects/${p.id}/branches`, { name: 'x' })).status).to.equal(201);
  });

  it('fails clearly on bad input', async () => {
    const bad = await graphctl('keys', 'create', '--user', 'x', '--scopes', 'root');
    expect(bad.code).to.equal(1);
    expect(JSON.parse(bad.stderr.split('\n')[0]).error).to.equal('unknown_scope');
    const usage = await graphctl('keys', 'frobnicate');
    expect(usage.code).to.equal(2);
    const role = await graphctl(
      'members',
      'add',
      '--project',
      '00000000-0000-4000-8000-000000000000',
      '--user',
      'x',
      '--role',
      'owner',
    );
    expect(role.code).to.equal(1);
  });
});
