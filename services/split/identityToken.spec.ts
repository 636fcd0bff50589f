/** Unit tests: signed identities between gateway and services. */
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
