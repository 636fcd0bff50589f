/**
 * Turns an Authorization header into a Principal. Missing, malformed, unknown and revoked
 * credentials all raise the same UnauthenticatedError, so a caller cannot probe which keys exist or
 * were revoked.
 */
import { UnauthenticatedError } from '../../shared/errors/domainErrors';
import type { Principal } from '../../shared/http/principal';
import type { Executor } from '../../shared/neo4j/executor';
import type { AuthCache } from './authCache';
import { hashToken, looksLikeToken } from './keyTokens';
import { findActiveKeyByHash } from './store/identityQueries';

/** How a front door meters the callers of one client address (see Authenticator.admit). */
export interface AddressGuard {
  /** Lookups of unknown keys per address: refused once spent, so bad keys cannot buy one each. */
  unknownKeys?: { refuseIfSpent(address: string): void; recordMiss(address: string): void };
  /** Charges a request whose credential failed to the address's anonymous rate limit. */
  chargeAnonymous(address: string): Promise<unknown>;
}

interface KeyRow extends Record<string, unknown> {
  keyId: string;
  userId: string;
  scopes: string[];
  projects: string[] | null;
}

export class Authenticator {
  /** With a cache, known keys skip the Neo4j lookup (see AuthCache for revocation). */
  constructor(private readonly options: { executor: Executor; cache?: AuthCache }) {}

  /** Extracts the bearer token, or null when the header is missing or malformed. */
  static bearerToken(header: string | undefined): string | null {
    if (!header) return null;
    const match = /^Bearer ([\x21-\x7e]+)$/i.exec(header.trim());
    return match ? match[1] : null;
  }

  /**
   * Hooks let the gateway do per-key work around the lookup: `onCachedKey` is told,
   * before the revocation check, the key id this process has cached for the
   * credential, so that per-key work can run alongside that check when both need Redis
   * (the answer is still only what this method returns); `beforeLookup` runs
   * when the key is not cached, before the Neo4j lookup, and may refuse it;
   * `onUnknown` when the lookup found no key. With the last two, unknown keys cannot
   * buy one lookup each.
   */
  async authenticate(
    header: string | undefined,
    hooks: {
      onCachedKey?: (keyId: string) => void;
      beforeLookup?: () => void;
      onUnknown?: () => void;
    } = {},
  ): Promise<Principal> {
    const token = Authenticator.bearerToken(header);
    if (!token || !looksLikeToken(token)) throw new UnauthenticatedError();
    const hash = hashToken(token);
    const { cache } = this.options;
    const candidate = hooks.onCachedKey && cache?.peek(hash);
    if (candidate) hooks.onCachedKey?.(candidate.keyId);
    // The epoch is read before the lookup: a revocation that commits after this
    // point bumps it, so what the lookup finds is never used past the revocation.
    const epoch = cache ? await cache.epoch() : undefined;
    const cached = epoch === undefined ? undefined : cache?.get(hash, epoch);
    if (cached) return cached;
    hooks.beforeLookup?.();
    const [row] = await this.options.executor.read<KeyRow>(findActiveKeyByHash, { hash });
    if (!row) {
      hooks.onUnknown?.();
      throw new UnauthenticatedError();
    }
    const principal: Principal = {
      userId: row.userId,
      keyId: row.keyId,
      scopes: new Set(row.scopes),
      projectAllowlist: row.projects ? new Set(row.projects) : null,
    };
    if (epoch !== undefined) cache?.set(hash, epoch, principal);
    return principal;
  }

  /**
   * authenticate() for a request from `address` (asked for only when the credential is not
   * a cached key: working out a proxied client's address is a cost of its own), as every
   * front door (the API and /mcp) does it: an address that has spent its budget of unknown-key lookups is refused
   * before the lookup, and a credential that fails is charged to the address's anonymous
   * rate limit before the 401 is thrown, so a stream of bad keys is throttled like any
   * other unauthenticated traffic.
   */
  async admit(
    header: string | undefined,
    address: () => string,
    guard: AddressGuard,
    onCachedKey?: (keyId: string) => void,
  ): Promise<Principal> {
    const { unknownKeys } = guard;
    try {
      return await this.authenticate(header, {
        onCachedKey,
        beforeLookup: unknownKeys && (() => unknownKeys.refuseIfSpent(address())),
        onUnknown: unknownKeys && (() => unknownKeys.recordMiss(address())),
      });
    } catch (error) {
      if (error instanceof UnauthenticatedError) await guard.chargeAnonymous(address());
      throw error;
    }
  }
}
