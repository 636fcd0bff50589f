/** Unit tests: signed identities between gateway and services. */
import { createHmac } from 'node:crypto';
import { expect } from 'chai';
import type { Principal } from '../../shared/http/principal';
import { bodyDigest, signIdentity, verifyIdentity } from './identityToken';

const SECRET = 'a-secret-of-at-least-thirty-two-characters';
const principal: Principal = {
  userId: 'u1',
  keyId: 'k1',
  scopes: new Set(['graph:write']),
  projectAllowlist: new Set(['p1']),
};
const call = { principal, operationId: 'applyDeltas', requestId: 'r1' };
const request = {
  method: 'POST',
  path: '/internal/v1/applyDeltas',
  digest: bodyDigest('{"body":{}}'),
};

describe('identity tokens (separate-process mode)', () => {
  it('round-trips the principal for the operation it was signed for', () => {
    const verified = verifyIdentity(
      SECRET,
      signIdentity(SECRET, call, request),
      'applyDeltas',
      request,
    );
    expect(verified?.requestId).to.equal('r1');
    expect(verified?.principal.userId).to.equal('u1');
    expect([...verified!.principal.scopes]).to.deep.equal(['graph:write']);
    expect([...verified!.principal.projectAllowlist!]).to.deep.equal(['p1']);
  });

  it('refuses a forged, altered, misdirected, expired or missing token', () => {
    const token = signIdentity(SECRET, call, request);
    const [body, mac] = token.split('.');
    const forgedBody = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(body, 'base64url').toString()), sub: 'admin' }),
    ).toString('base64url');
    expect(verifyIdentity(SECRET, `${forgedBody}.${mac}`, 'applyDeltas', request)).to.equal(
      undefined,
    );
    expect(
      verifyIdentity('another-secret-another-secret-another', token, 'applyDeltas', request),
    ).to.equal(undefined);
    expect(verifyIdentity(SECRET, token, 'deleteProject', request)).to.equal(undefined);
    expect(verifyIdentity(SECRET, token, 'applyDeltas', request, Date.now() + 120_000)).to.equal(
      undefined,
    );
    expect(verifyIdentity(SECRET, undefined, 'applyDeltas', request)).to.equal(undefined);
    expect(verifyIdentity(SECRET, `${body}`, 'applyDeltas', request)).to.equal(undefined);
  });

  it('gives every token its own nonce, to be claimed once until the token expires', () => {
    const now = Date.now();
    const a = verifyIdentity(
      SECRET,
      signIdentity(SECRET, call, request, now),
      'applyDeltas',
      request,
      now,
    );
    const b = verifyIdentity(
      SECRET,
      signIdentity(SECRET, call, request, now),
      'applyDeltas',
      request,
      now,
    );
    expect(a?.nonce).to.be.a('string').with.length.of.at.least(16);
    expect(a?.nonce).to.not.equal(b?.nonce);
    expect(a?.expiresAt).to.equal(now + 60_000);
    // a token signed without a nonce (as before nonces) is not accepted
    const token = signIdentity(SECRET, call, request, now);
    const payload = JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString());
    delete payload.non;
    const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
    const mac = createHmac('sha256', SECRET).update(body).digest('base64url');
    expect(verifyIdentity(SECRET, `${body}.${mac}`, 'applyDeltas', request, now)).to.equal(
      undefined,
    );
  });

  it('binds the token to the method, path and body digest of the call', () => {
    const token = signIdentity(SECRET, call, request);
    expect(verifyIdentity(SECRET, token, 'applyDeltas', request)).to.not.equal(undefined);
    for (const changed of [
      { ...request, digest: bodyDigest('{"body":{"deltas":[]}}') },
      { ...request, method: 'PUT' },
      { ...request, path: '/internal/v1/applyDeltas/' },
    ])
      expect(verifyIdentity(SECRET, token, 'applyDeltas', changed)).to.equal(undefined);
  });
});
