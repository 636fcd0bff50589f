/**
 * Causal consistency across processes. Neo4j answers each committed transaction
 * with a bookmark; a transaction started with bookmarks waits until the database
 * member serving it has applied them. Inside one process the Executor's bookmark
 * manager does this by itself. Across processes (gateway, owner services, replicas)
 * the bookmarks travel with the request: the X-Graph-Bookmark header carries them in
 * an opaque token, `runWithBookmarks` makes them the starting bookmarks of every
 * session the request opens, and collects the bookmarks of the writes it commits.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
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
}

const scopes = new AsyncLocalStorage<BookmarkScope>();

/** Runs `work` with starting bookmarks; returns its result and what it committed. */
export async function runWithBookmarks<T>(
  incoming: readonly string[],
  work: () => Promise<T>,
): Promise<{ value: T; written: string[] }> {
  const scope: BookmarkScope = { incoming, written: [] };
  const value = await scopes.run(scope, work);
  return { value, written: scope.written };
}

/** The scope of the request being served, if any (read by the Executor). */
export function currentBookmarkScope(): BookmarkScope | undefined {
  return scopes.getStore();
}

/** The opaque header value for a set of bookmarks (unique, at most MAX_BOOKMARKS). */
export function encodeBookmarks(bookmarks: readonly string[]): string {
  const unique = [...new Set(bookmarks)].slice(-MAX_BOOKMARKS);
  return Buffer.from(JSON.stringify(unique), 'utf8').toString('base64url');
}

function invalid(msg: string): RequestValidationError {
  return new RequestValidationError([
    { loc: ['header', BOOKMARK_HEADER], msg, type: 'value_error', input: null },
  ]);
}

/** The bookmarks in a header value; absent is none, anything malformed a 422. */
export function decodeBookmarks(token: string | undefined): string[] {
  if (token === undefined || token === '') return [];
  if (token.length > MAX_TOKEN_CHARS || !TOKEN.test(token))
    throw invalid('not a bookmark token this service issued');
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    throw invalid('not a bookmark token this service issued');
  }
  if (
    !Array.isArray(parsed) ||
    parsed.length > MAX_BOOKMARKS ||
    !parsed.every((b) => typeof b === 'string' && BOOKMARK.test(b))
  ) {
    throw invalid('not a bookmark token this service issued');
  }
  return parsed as string[];
}
