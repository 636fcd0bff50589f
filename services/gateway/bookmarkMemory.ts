/**
 * Read-your-writes across processes without the client's help: the gateway keeps
 * the newest X-Graph-Bookmark of each API key in Redis for a short time
 * (GRAPH_BOOKMARK_TTL_S), once for the key and once for the branch or project the
 * write named, and adds them to that key's later reads, whichever gateway replica
 * and owner process serve them. A client may also send the header itself (for
 * example another client that must see the write). Only tokens the service signed
 * count, whether sent or found in Redis (BookmarkTokens). Best effort: when Redis does
 * not answer, reads go on with the bookmarks the client sent.
 */
import { BOOKMARK_HEADER, BookmarkTokens } from '../../shared/neo4j/graphBookmarks';
import { bookmarkedOperations, isReadOperation } from '../../shared/http/bookmarkedOperations';
import type { OperationRequest, OperationTable } from '../../shared/http/operation';
import type { RedisClient } from '../../shared/redis/redisClient';
import { bestEffort } from '../../shared/async/promises';

const HEADER = BOOKMARK_HEADER.toLowerCase();

export class BookmarkMemory {
  constructor(
    private readonly options: { redis: RedisClient; ttlSeconds: number; tokens: BookmarkTokens },
  ) {}

  /** The tokens remembered and read with (the ones the gateway's handlers sign). */
  get tokens(): BookmarkTokens {
    return this.options.tokens;
  }

  /** The key-wide and the scoped entry share a hash tag: one slot on a Redis Cluster. */
  static keysOf(keyId: string, scope: string): [string, string] {
    return [`{gbm:${keyId}}:*`, `{gbm:${keyId}}:${scope}`];
  }

  async recall(keyId: string, scope: string): Promise<string[]> {
    if (this.options.ttlSeconds === 0) return [];
    try {
      const tokens = await this.options.redis.mget(...BookmarkMemory.keysOf(keyId, scope));
      // a token is kept as a write answered it; one written there by anyone else is not signed
      return tokens.flatMap((token) => (token ? this.options.tokens.read(token) : []));
    } catch {
      return [];
    }
  }

  async remember(keyId: string, scope: string, token: string): Promise<void> {
    if (this.options.ttlSeconds === 0) return;
    const [all, scoped] = BookmarkMemory.keysOf(keyId, scope);
    await bestEffort(
      this.options.redis
        .multi()
        .set(all, token, 'EX', this.options.ttlSeconds)
        .set(scoped, token, 'EX', this.options.ttlSeconds)
        .exec(),
      "the write's answer carries its bookmark; only reads that rely on this memory miss it",
    );
  }
}

/** What a write and a later read have in common: the branch, else the project. */
function scopeOf(request: OperationRequest): string {
  return request.params.branch_id ?? request.params.project_id ?? '*';
}

export function rememberingOperations(
  table: OperationTable,
  memory: BookmarkMemory,
): OperationTable {
  const wrapped: OperationTable = {};
  for (const [operationId, handler] of Object.entries(table)) {
    wrapped[operationId] = async (request) => {
      const keyId = request.principal?.keyId;
      if (!keyId) return handler(request);
      if (isReadOperation(operationId)) {
        const sent = memory.tokens.read(request.headers[HEADER]);
        const recalled = await memory.recall(keyId, scopeOf(request));
        if (recalled.length === 0) return handler(request);
        const headers = {
          ...request.headers,
          [HEADER]: memory.tokens.issue([...sent, ...recalled]),
        };
        // the logger too: a spread copies no getter of the request's class
        return handler({ ...request, headers, log: request.log });
      }
      const result = await handler(request);
      const token = result.headers?.[BOOKMARK_HEADER];
      if (token) await memory.remember(keyId, scopeOf(request), token);
      return result;
    };
  }
  return wrapped;
}

/**
 * The gateway's operation table with bookmarks carried: the handlers run with the
 * request's bookmarks (in split mode the owner process does the same; here they
 * commit nothing), and the key's newest bookmark is remembered and added to reads.
 */
export function withGraphBookmarks(memory: BookmarkMemory, table: OperationTable): OperationTable {
  return rememberingOperations(bookmarkedOperations(table, memory.tokens), memory);
}
