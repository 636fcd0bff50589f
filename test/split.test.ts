/**
 * Separate-process mode: a service process accepts only calls that
 * carry an identity signed by the gateway for that very operation and body; anything
 * a client could write itself (no token, a forged, re-targeted or re-used one) is
 * refused.
 * The whole suite runs through the split topology in `make integration-split`.
 */
import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { loadConfigWith } from '../shared/config/config';
import { createLogger } from '../shared/logging/logger';
import type { Principal } from '../shared/http/principal';
import {
  bodyDigest,
  IDENTITY_HEADER,
  internalPath,
  signIdentity,
} from '../services/split/identityToken';
import { loadOperationRegistry } from '../services/platform';
import { RunningOwnerService, startOwnerService } from '../services/split/startOwnerService';
import { newUser, TEST_ENV, uniqueName } from './support/harness';

describe('separate-process mode: service processes trust only signed identities', () => {
  const secret = randomBytes(32).toString('base64url');
  let projects: RunningOwnerService;
  /** A caller with no scopes: enough to reach an operation, which then refuses it. */
  const nobody: Principal = {
    userId: 'x',
    keyId: 'y',
    scopes: new Set<string>(),
    projectAllowlist: null,
  };

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

  /** The identity the gateway would sign for calling `operationId` with `body`. */
  function sign(
    operationId: string,
    principal: Principal,
    body: unknown = {},
    key: string = secret,
  ): string {
    return signIdentity(
      key,
      { principal, operationId, requestId: 'r' },
      { method: 'POST', path: internalPath(operationId), digest: bodyDigest(JSON.stringify(body)) },
    );
  }

  it('runs an operation for a signed identity and answers the status, body and headers envelope', async () => {
    const alice = await newUser();
    const principal = {
      userId: alice.userId,
      keyId: alice.keyId,
      scopes: new Set(['graph:write']),
      projectAllowlist: null,
    };
    const body = { body: { name: uniqueName() } };
    const token = sign('createProject', principal, body);
    const created = await call('createProject', token, body);
    expect(created.status).to.equal(200);
    expect(created.body.status).to.equal(201);
    expect(created.body.body.project.name).to.match(/^project-/);
    const empty = { body: { name: '' } };
    const invalid = await call('createProject', sign('createProject', principal, empty), empty);
    expect(invalid.body.status).to.equal(422);
    // the token is bound to the body it was signed with: another body is refused
    expect((await call('createProject', token, { body: { name: uniqueName() } })).status).to.equal(
      401,
    );

    const other = { body: { name: uniqueName() } };
    const listToken = sign('listProjects', principal, other);
    expect((await call('createProject', listToken, other)).status).to.equal(401);
  });

  it('refuses calls without a token, with a forged one, or signed with another secret', async () => {
    const principal = nobody;
    const other = sign(
      'listProjects',
      principal,
      {},
      'another-secret-another-secret-another-secret',
    );
    expect((await call('listProjects', undefined)).status).to.equal(401);
    expect((await call('listProjects', 'eyJzdWIiOiJ4In0.AAAA')).status).to.equal(401);
    expect((await call('listProjects', other)).status).to.equal(401);
    expect((await call('getMainGraph', other)).status).to.equal(404); // not owned here
    // signed for this body, but sent to another path of the same process
    const listed = await fetch(`${projects.url}/internal/v1/listProjects/`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        [IDENTITY_HEADER]: sign('listProjects', principal),
      },
      body: '{}',
    });
    expect(listed.status).to.equal(401);
  });

  it('accepts a token once: replayed to this process or to another of the same service, it is refused', async function () {
    this.timeout(60_000);
    const config = loadConfigWith({ ...TEST_ENV, INTERNAL_SECRET: secret });
    const replica = await startOwnerService(config, 'projects', createLogger({ level: 'silent' }));
    try {
      const alice = await newUser();
      const principal = { ...nobody, userId: alice.userId, keyId: alice.keyId };
      const token = sign('listProjects', principal);
      const first = await call('listProjects', token);
      expect(first.status).to.equal(200);
      expect(first.body.status).to.equal(200);
      // the same call, token and body within the token's lifetime: a replay
      expect((await call('listProjects', token)).status).to.equal(401);
      const elsewhere = await fetch(`${replica.url}${internalPath('listProjects')}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [IDENTITY_HEADER]: token },
        body: '{}',
      });
      expect(elsewhere.status).to.equal(401);
      // a token signed afresh for the same call is served, by either process
      expect((await call('listProjects', sign('listProjects', principal))).status).to.equal(200);
    } finally {
      await replica.close();
    }
  });

  it('serves exactly the operations whose x-service is its own, and no other', async () => {
    const principal = nobody;
    const registry = loadOperationRegistry();
    for (const { operationId, owner } of registry.operations) {
      const { status, body } = await call(operationId, sign(operationId, principal));
      if (owner === 'projects') expect(status, operationId).to.equal(200);
      else
        expect(body, operationId).to.deep.equal({ error: `projects does not own ${operationId}` });
    }
  });
});
