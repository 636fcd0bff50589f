/**
 * The caller's identity as it travels from the gateway to a service process:
 * the authenticated Principal, the operation and the request id, with an expiry,
 * signed with HMAC-SHA256 under the INTERNAL_SECRET both sides share. The token is
 * bound to the one call it was made for: the operation, the method and path of the
 * internal request, and the SHA-256 digest of its body. A service accepts a call
 * only with a valid signature, an unexpired token and all of these matching, so a
 * header anyone could write is worth nothing, and a token seen once cannot carry
 * another body or reach another operation. Each token also carries a random nonce,
 * which the receiving service claims once (usedIdentities.ts): the same token sent
 * again, to any process of the service, is refused, so a token seen on the wire
 * cannot repeat its call (a write, a merge) during its lifetime.
 *   token = base64url(JSON payload) "." base64url(HMAC(secret, first part))
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Principal } from '../../shared/http/principal';

export const IDENTITY_HEADER = 'x-gds-identity';

/** How long a signed identity is good for (one internal call). */
const LIFETIME_MS = 60_000;

interface Payload {
  sub: string;
  kid: string;
  scp: string[];
  prj: string[] | null;
  op: string;
  rid: string;
  exp: number;
  /** Method, path and body digest of the internal request. */
  mth: string;
  pth: string;
  dig: string;
  /** Random, once per token: what a service remembers to refuse a replay. */
  non: string;
}

/** What the token is bound to, besides the operation. */
export interface InternalRequest {
  method: string;
  path: string;
  /** SHA-256 (hex) of the request body's bytes, see bodyDigest(). */
  digest: string;
}

export function bodyDigest(bytes: string | Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The internal path an operation is called at. */
export function internalPath(operationId: string): string {
  return `/internal/v1/${operationId}`;
}

function mac(secret: string, data: string): Buffer {
  return createHmac('sha256', secret).update(data).digest();
}

export function signIdentity(
  secret: string,
  call: { principal: Principal; operationId: string; requestId: string },
  request: InternalRequest,
  now = Date.now(),
): string {
  const payload: Payload = {
    sub: call.principal.userId,
    kid: call.principal.keyId,
    scp: [...call.principal.scopes],
    prj: call.principal.projectAllowlist ? [...call.principal.projectAllowlist] : null,
    op: call.operationId,
    rid: call.requestId,
    exp: now + LIFETIME_MS,
    mth: request.method.toUpperCase(),
    pth: request.path,
    dig: request.digest,
    non: randomBytes(16).toString('base64url'),
  };
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
  return `${body}.${mac(secret, body).toString('base64url')}`;
}

export type VerifiedIdentity = {
  principal: Principal;
  requestId: string;
  /** The token's nonce and expiry (ms): the nonce is to be claimed once until then. */
  nonce: string;
  expiresAt: number;
};

/** The identity in `token` for `operationId` and `request`, or undefined when it is not valid. */
export function verifyIdentity(
  secret: string,
  token: string | undefined,
  operationId: string,
  request: InternalRequest,
  now = Date.now(),
): VerifiedIdentity | undefined {
  if (!token) return undefined;
  const [body, signature, extra] = token.split('.');
  if (!body || !signature || extra !== undefined) return undefined;
  const expected = mac(secret, body);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  let payload: Payload;
  try {
    payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Payload;
  } catch {
    return undefined;
  }
  if (payload.op !== operationId || typeof payload.exp !== 'number' || payload.exp < now) {
    return undefined;
  }
  if (typeof payload.non !== 'string' || payload.non.length < 16) return undefined;
  if (
    payload.mth !== request.method.toUpperCase() ||
    payload.pth !== request.path ||
    payload.dig !== request.digest
  ) {
    return undefined;
  }
  return {
    principal: {
      userId: payload.sub,
      keyId: payload.kid,
      scopes: new Set(payload.scp),
      projectAllowlist: payload.prj ? new Set(payload.prj) : null,
    },
    requestId: payload.rid,
    nonce: payload.non,
    expiresAt: payload.exp,
  };
}
