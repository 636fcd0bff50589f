/**
 * Turns an Authorization header into a Principal. Missing, malformed, unknown and revoked
 * credentials all raise the same UnauthenticatedError, so a caller cannot probe which keys exist or
 * were revoked.
 */
import { UnauthenticatedError } from '../../shared/errors/domainErrors';
import type { Principal } from '../../shared/http/principal';
import type { Executor } from '../../shared/neo4j/executor';
import type { AuthCache } from './authCache';
import { KeyLookupBatch, KeyRow } from './keyLookupBatch';
import { hashToken, looksLikeToken } from './keyTokens';
import { findActiveKeyByHash } from './store/identityQueries';

/**
 * Lookups of unknown keys per address: once an address has spent its budget, its
 * uncached keys are looked up the gathered way (KeyLookupBatch), so bad keys cannot buy
 * one statement each and a valid key is still served.
 */
export interface UnknownKeyBudget {
  spent(address: string): boolean;
  recordMiss(address: string): void;
}

/** How a front door meters the callers of one client address (see Authenticator.admit). */
export interface AddressGuard {
  unknownKeys?: UnknownKeyBudget;
  /** Charges a request whose credential failed to the address's anonymous rate limit. */
  chargeAnonymous(address: string): Promise<unknown>;
}

/** The longest Authorization header whose token hash is remembered (a token is < 200). */
const MEMO_HEADER_CHARS = 256;

export class Authenticator {
  /** Lookups gathered into few statements, for callers past their unknown-key budget. */
  private readonly gathered: KeyLookupBatch;

  /**
   * The token hashes of Authorization headers whose key cachedPrincipal answered, so that
   * a busy key's requests skip hashing their token (a SHA-256 per request, measured as a
   * share of the gateway's fixed cost). A header's hash never changes, so this changes
   * no answer: the key behind it is still checked against revocations and expiry on
   * each request (AuthCache.getNow), and a header whose key is no longer answered is
   * dropped. It holds raw headers, as the requests in flight do: only those of keys
   * answered from the cache, at most as many as the cache holds keys (oldest out first),
   * and none for longer than the cache keeps a key (it is emptied at each such period).
   * Headers longer than a token's (padded, say) are hashed each time, not kept: the
   * memory a key's holder can fill here stays at most maxEntries x MEMO_HEADER_CHARS.
   */
  private readonly cachedHeaders = new Map<string, string>();
  private cachedHeadersSince = -Infinity;

  /** With a cache, known keys skip the Neo4j lookup (see AuthCache for revocation). */
  constructor(private readonly options: { executor: Executor; cache?: AuthCache }) {
    this.gathered = new KeyLookupBatch({ executor: options.executor });
  }

  /** Extracts the bearer token, or null when the header is missing or malformed. */
  static bearerToken(header: string | undefined): string | null {
    if (!header) return null;
    const match = /^Bearer ([\x21-\x7e]+)$/i.exec(header.trim());
    return match ? match[1] : null;
  }

  /**
   * The principal of a cached key whose revocation check needs no Redis round trip (see
   * AuthCache.getNow), answered without waiting; undefined when authenticate() must
   * answer (a key not cached, an epoch not confirmed lately, a bad credential).
   */
  cachedPrincipal(header: string | undefined): Principal | undefined {
    const cache = this.options.cache;
    if (!cache || !header) return undefined;
    const now = cache.now();
    if (now - this.cachedHeadersSince >= cache.ttlMs) {
      this.cachedHeaders.clear();
      this.cachedHeadersSince = now;
    }
    const known = this.cachedHeaders.get(header);
    const hash = known ?? Authenticator.tokenHash(header);
    const principal = hash ? cache.getNow(hash) : undefined;
    if (principal && !known && header.length <= MEMO_HEADER_CHARS)
      this.rememberHeader(header, hash as string, cache.maxEntries);
    else if (!principal && known) this.cachedHeaders.delete(header);
    return principal;
  }

  private rememberHeader(header: string, hash: string, maxEntries: number): void {
    if (this.cachedHeaders.size >= maxEntries) {
      const oldest = this.cachedHeaders.keys().next();
      if (!oldest.done) this.cachedHeaders.delete(oldest.value);
    }
    this.cachedHeaders.set(header, hash);
  }

  /** The hash keys are found by, or null when the header carries no well-formed token. */
  private static tokenHash(header: string | undefined): string | null {
    const token = Authenticator.bearerToken(header);
    return token && looksLikeToken(token) ? hashToken(token) : null;
  }

  /**
   * Hooks let the gateway do per-key work around the lookup: `onCachedKey` is told,
   * before the revocation check, the key id this process has cached for the
   * credential, so that per-key work can run alongside that check when both need Redis
   * (the answer is still only what this method returns); `gathered`, asked when the
   * key is not cached, says to look it up with others in one statement (the caller's
   * address has spent its budget of unknown keys) instead of on its own;
   * `onUnknown` is told when the lookup found no key. With the last two, unknown keys
   * cannot buy one statement each, and a valid key is found either way.
   */
  async authenticate(
    header: string | undefined,
    hooks: {
      onCachedKey?: (keyId: string) => void;
      gathered?: () => boolean;
      onUnknown?: () => void;
    } = {},
  ): Promise<Principal> {
    const hash = Authenticator.tokenHash(header);
    if (!hash) throw new UnauthenticatedError();
    const { cache } = this.options;
    const candidate = hooks.onCachedKey && cache?.peek(hash);
    if (candidate) hooks.onCachedKey?.(candidate.keyId);
    // The epoch is read before the lookup: a revocation that commits after this
    // point bumps it, so what the lookup finds is never used past the revocation.
    const epoch = cache ? await cache.epoch() : undefined;
    const cached = epoch === undefined ? undefined : cache?.get(hash, epoch);
    if (cached) return cached;
    const row = hooks.gathered?.()
      ? await this.gathered.lookup(hash)
      : (await this.options.executor.read<KeyRow>(findActiveKeyByHash, { hash }))[0];
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
   * front door (the API and /mcp) does it: the uncached key of an address that has spent
   * its budget of unknown-key lookups is looked up the gathered way, and a credential
   * that fails is charged to the address's anonymous rate limit before the 401 is
   * thrown, so a stream of bad keys is throttled like any other unauthenticated traffic.
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
        gathered: unknownKeys && (() => unknownKeys.spent(address())),
        onUnknown: unknownKeys && (() => unknownKeys.recordMiss(address())),
      });
    } catch (error) {
      if (error instanceof UnauthenticatedError) await guard.chargeAnonymous(address());
      throw error;
    }
  }
}
