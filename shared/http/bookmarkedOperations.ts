/**
 * Carries Neo4j bookmarks through an operation handler: the request's
 * X-Graph-Bookmark token (from the client, or added by the gateway), when this service
 * signed it (BookmarkTokens: any other token is ignored), becomes the
 * starting bookmarks of every session the handler opens, so the read waits until
 * the database member serving it has the writes it names; a handler that commits
 * a write answers the new token in X-Graph-Bookmark. Wraps the handlers that run
 * Cypher: the in-process gateway's, and each owner process's in separate-process mode.
 */
import { BOOKMARK_HEADER, BookmarkTokens, runWithBookmarks } from '../neo4j/graphBookmarks';
import type { OperationHandler, OperationRequest, OperationTable } from './operation';

/** Operations served by GET (get…, list…, export…, search…, stream…): they read, and a bookmark they might write is not kept. */
export function isReadOperation(operationId: string): boolean {
  return /^(get|list|export|search|stream)[A-Z]/.test(operationId);
}

export function bookmarked(
  tokens: BookmarkTokens,
  operationId: string,
  handler: OperationHandler,
): OperationHandler {
  return async (request) => {
    // open operations (probes) have no caller and run no graph query
    if (!(request.principal as OperationRequest['principal'] | undefined)) return handler(request);
    // only a token this service signed names bookmarks to wait for
    const incoming = tokens.read(request.headers[BOOKMARK_HEADER.toLowerCase()]);
    const { value, written } = await runWithBookmarks(incoming, () => handler(request));
    if (written.length === 0 || isReadOperation(operationId)) return value;
    return { ...value, headers: { ...value.headers, [BOOKMARK_HEADER]: tokens.issue(written) } };
  };
}

export function bookmarkedOperations(
  table: OperationTable,
  tokens: BookmarkTokens,
): OperationTable {
  return Object.fromEntries(
    Object.entries(table).map(([operationId, handler]) => [
      operationId,
      bookmarked(tokens, operationId, handler),
    ]),
  );
}
