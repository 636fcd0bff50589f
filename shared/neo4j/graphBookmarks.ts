/**
 * Causal consistency across processes. Neo4j answers each committed transaction
 * with a bookmark; a transaction started with bookmarks waits until the database
 * member serving it has applied them. Inside one process the Executor's bookmark
 * manager does this by itself. Across processes (gateway, owner services, replicas)
 * the bookmarks travel with the request: the X-Graph-Bookmark header carries them in
 * an opaque signed token (BookmarkTokens), `runWithBookmarks` makes them the starting
 * bookmarks of every session the request opens, and collects the bookmarks of the
 * writes it commits. The Executor waits for a request's bookmarks at most
 * GRAPH_BOOKMARK_WAIT_MS, once per request (`reached`), before its first session.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { RequestValidationError } from '../errors/domainErrors';

export const BOOKMARK_HEADER = 'X-Graph-Bookmark';
/** More than enough for the few writers a read can depend on. */
export const MAX_BOOKMARKS = 8;
const MAX_TOKEN_CHARS = 4096;
const BOOKMARK = /^[\x21-\x7e]{1,512}$/;
const TOKEN = /^[A-Za-z0-9_-]+$/;

export interface BookmarkScope {
  /** Bookmarks every session of the request starts from. */
  readonly incoming: readonly string[];
  /** Bookmarks of the transactions the request committed, newest last. */
  written: string[];
  /** Whether the database has been seen to reach `incoming` (the Executor waits once). */
  reached: boolean;
}

const scopes = new AsyncLocalStorage<BookmarkScope>();

/** Runs `work` with starting bookmarks; returns its result and what it committed. */
export async function runWithBookmarks<T>(
  incoming: readonly string[],
  work: () => Promise<T>,
): Promise<{ value: T; written: string[] }> {
  const scope: BookmarkScope = { incoming, written: [], reached: incoming.length === 0 };
  const value = await scopes.run(scope, work);
  return { value, written: scope.written };
}

/** The scope of the request being served, if any (read by the Executor). */
export function currentBookmarkScope(): BookmarkScope | undefined {
  return scopes.getStore();
}

function invalid(msg: string): RequestValidationError {
  return new RequestValidationError([
    { loc: ['header', BOOKMARK_HEADER], msg, type: 'value_error', input: null },
  ]);
}

/** Bytes of a token's MAC (HMAC-SHA256 cut to 128 bits: enough against forgery). */
const MAC_BYTES = 16;
/** What the MAC key is derived for: never the key that signs identities (identityToken.ts). */
const KEY_PURPOSE = 'graph-design-service X-Graph-Bookmark v1';

/**
 * The X-Graph-Bookmark tokens of this service: base64url of a MAC and the JSON list of
 * bookmarks it covers, signed with a key derived from INTERNAL_SECRET. A read waits for
 * the bookmarks it is given, so only bookmarks the service issued (of transactions that
 * committed) are honoured: a caller cannot name a transaction that never comes and make
 * reads wait for it. Processes that share INTERNAL_SECRET (the gateway and the service
 * processes, several gateways) honour each other's tokens; a process without one signs
 * with a key of its own, honoured by itself only.
 */
export class BookmarkTokens {
  private readonly key: Buffer;

  /** `secret`: INTERNAL_SECRET; absent, a random key of this process. */
  constructor(secret: string | undefined) {
    const root = secret ?? randomBytes(32).toString('base64url');
    this.key = createHmac('sha256', root).update(KEY_PURPOSE).digest();
  }

  /** The token of a set of bookmarks (unique, the newest MAX_BOOKMARKS). */
  issue(bookmarks: readonly string[]): string {
    const unique = [...new Set(bookmarks)].slice(-MAX_BOOKMARKS);
    const json = Buffer.from(JSON.stringify(unique), 'utf8');
    return Buffer.concat([this.mac(json), json]).toString('base64url');
  }

  /**
   * The bookmarks of a header value. Absent: none. Not a token at all (characters outside
   * base64url, too long): a 422. A token this service did not sign (forged, altered, or
   * signed under another INTERNAL_SECRET): ignored, none, so the read waits for nothing.
   */
  read(token: string | undefined): string[] {
    if (token === undefined || token === '') return [];
    if (token.length > MAX_TOKEN_CHARS || !TOKEN.test(token))
      throw invalid('not a bookmark token this service issued');
    const bytes = Buffer.from(token, 'base64url');
    if (bytes.length <= MAC_BYTES) return [];
    const json = bytes.subarray(MAC_BYTES);
    if (!timingSafeEqual(bytes.subarray(0, MAC_BYTES), this.mac(json))) return [];
    const parsed: unknown = JSON.parse(json.toString('utf8'));
    // what this service signed is its own list: anything else is a bug, not a caller's doing
    if (
      !Array.isArray(parsed) ||
      parsed.length > MAX_BOOKMARKS ||
      !parsed.every((b) => typeof b === 'string' && BOOKMARK.test(b))
    )
      throw new Error('a signed bookmark token holds no list of bookmarks');
    return parsed as string[];
  }

  private mac(json: Buffer): Buffer {
    return createHmac('sha256', this.key).update(json).digest().subarray(0, MAC_BYTES);
  }
}
