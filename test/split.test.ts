/**
 * Separate-process mode (issue 6): a service process accepts only calls that
 * carry an identity signed by the gateway for that very operation; anything a
 * client could write itself (no token, a forged or re-targeted one) is refused.
 * The whole suite runs through the split topology in `make integration-split`.
 */
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { loadConfigWith } from '../shared/config/config';
import { createLogger } from '../shared/logging/logger';
import { IDENTITY_HEADER, signIdentity } from '../services/split/identityToken';
import { RunningOwnerService, startOwnerService } from '../services/split/startOwnerService';
import { newUser, TEST_ENV, uniqueName } from './support/harness';

describe('separate-process mode: service processes trust only signed identities', () => {
  const secret = randomBytes(32).toString('base64url');
  let projects: RunningOwnerService;

  before(async function () {
    this.timeout(60_000);
    const config = loadConfigWith({ ...TEST_ENV, INTERNAL_SECRET: secret });
    projects = await startOwnerService(config, 'projects', createLogger({ level: 'silent' }));
  });
  after(async () => projects?.close());

  async function call(operationId: string, token: string | undefined, body: unknown = {}) {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (token !== undefined) headers[IDENTITY_HEADER] = token;
    const res = await fetch(`${projects.url}/internal/v1/${operationId}`, {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as any };
  }

  it('runs an operation for a signed identity and answers the §7 envelope', async () => {
    const alice = await newUser();
    const principal = {
      userId: alice.userId,
      keyId: alice.keyId,
      scopes: new Set(['graph:write']),
      projectAllowlist: null,
    };
    const token = signIdentity(secret, { principal, operationId: 'createProject', requestId: 'r' });
    const created = await call('createProject', token, { body: { name: uniqueName() } });
    expect(created.status).to.equal(200);
    expect(created.body.status).to.equal(201);
    expect(created.body.body.project.name).to.match(/^project-/);
    const invalid = await call('createProject', token, { body: { name: '' } });
    expect(invalid.body.status).to.equal(422);

    const listToken = signIdentity(secret, {
      principal,
      operationId: 'listProjects',
      requestId: 'r',
    });
    expect(
      (await call('createProject', listToken, { body: { name: uniqueName() } })).status,
    ).to.equal(401);
  });

  it('refuses calls without a token, with a forged one, or signed with another secret', async () => {
    const principal = {
      userId: 'x',
      keyId: 'y',
      scopes: new Set<string>(),
      projectAllowlist: null,
    };
    const other = signIdentity('another-secret-another-secret-another-secret', {
      principal,
      operationId: 'listProjects',
      requestId: 'r',
    });
    expect((await call('listProjects', undefined)).status).to.equal(401);
    expect((await call('listProjects', 'eyJzdWIiOiJ4In0.AAAA')).status).to.equal(401);
    expect((await call('listProjects', other)).status).to.equal(401);
    expect((await call('getMainGraph', other)).status).to.equal(404); // not owned here
  });
});
