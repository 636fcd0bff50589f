/** Unit tests: signed identities between gateway and services; every operation has an owner. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { parse } from 'yaml';
import type { Principal } from '../../shared/http/principal';
import { signIdentity, verifyIdentity } from './identityToken';
import { GATEWAY_OPERATIONS, OPERATION_OWNERS } from './operationOwners';

const SECRET = 'a-secret-of-at-least-thirty-two-characters';
const principal: Principal = {
  userId: 'u1',
  keyId: 'k1',
  scopes: new Set(['graph:write']),
  projectAllowlist: new Set(['p1']),
};
const call = { principal, operationId: 'applyDeltas', requestId: 'r1' };

describe('identity tokens (separate-process mode)', () => {
  it('round-trips the principal for the operation it was signed for', () => {
    const verified = verifyIdentity(SECRET, signIdentity(SECRET, call), 'applyDeltas');
    expect(verified?.requestId).to.equal('r1');
    expect(verified?.principal.userId).to.equal('u1');
    expect([...verified!.principal.scopes]).to.deep.equal(['graph:write']);
    expect([...verified!.principal.projectAllowlist!]).to.deep.equal(['p1']);
  });

  it('refuses a forged, altered, misdirected, expired or missing token', () => {
    const token = signIdentity(SECRET, call);
    const [body, mac] = token.split('.');
    const forgedBody = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(body, 'base64url').toString()), sub: 'admin' }),
    ).toString('base64url');
    expect(verifyIdentity(SECRET, `${forgedBody}.${mac}`, 'applyDeltas')).to.equal(undefined);
    expect(verifyIdentity('another-secret-another-secret-another', token, 'applyDeltas')).to.equal(
      undefined,
    );
    expect(verifyIdentity(SECRET, token, 'deleteProject')).to.equal(undefined);
    expect(verifyIdentity(SECRET, token, 'applyDeltas', Date.now() + 120_000)).to.equal(undefined);
    expect(verifyIdentity(SECRET, undefined, 'applyDeltas')).to.equal(undefined);
    expect(verifyIdentity(SECRET, `${body}`, 'applyDeltas')).to.equal(undefined);
  });

  it('gives every operation of the OpenAPI document an owner or the gateway', () => {
    const doc = parse(
      readFileSync(join(__dirname, '..', '..', 'openapi', 'graph-design-service.yaml'), 'utf8'),
    ) as { paths: Record<string, Record<string, { operationId?: string }>> };
    const ids = Object.values(doc.paths).flatMap((item) =>
      Object.values(item).flatMap((op) => (op?.operationId ? [op.operationId] : [])),
    );
    const handled = [...Object.keys(OPERATION_OWNERS), ...GATEWAY_OPERATIONS];
    expect([...ids].sort()).to.deep.equal([...handled].sort());
  });
});
