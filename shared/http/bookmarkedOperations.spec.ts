import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { parse } from 'yaml';
import pino from 'pino';
import { RequestValidationError } from '../errors/domainErrors';
import {
  BOOKMARK_HEADER,
  BookmarkTokens,
  currentBookmarkScope,
  MAX_BOOKMARKS,
} from '../neo4j/graphBookmarks';
import { bookmarked, isReadOperation } from './bookmarkedOperations';
import type { OperationRequest } from './operation';

const request = (headers: Record<string, string | undefined> = {}): OperationRequest => ({
  operationId: 'x',
  params: {},
  query: {},
  body: undefined,
  headers,
  principal: { userId: 'u', keyId: 'k', scopes: new Set(), projectAllowlist: null },
  requestId: 'r',
  log: pino({ level: 'silent' }),
});

const SECRET = 'a-shared-internal-secret-of-32-characters-or-more';
const tokens = new BookmarkTokens(SECRET);

describe('graph bookmarks', () => {
  it('round-trips a token and keeps the newest distinct bookmarks only', () => {
    expect(tokens.read(tokens.issue(['FB:a', 'FB:b', 'FB:a']))).to.deep.equal(['FB:a', 'FB:b']);
    const many = Array.from({ length: MAX_BOOKMARKS + 3 }, (_, i) => `FB:${i}`);
    expect(tokens.read(tokens.issue(many))).to.deep.equal(many.slice(-MAX_BOOKMARKS));
    expect(tokens.read(undefined)).to.deep.equal([]);
  });

  it('honours a token signed under the same INTERNAL_SECRET in another process', () => {
    const other = new BookmarkTokens(SECRET);
    expect(other.read(tokens.issue(['FB:x']))).to.deep.equal(['FB:x']);
  });

  it('ignores a well-formed token it did not sign: forged, altered, or signed under another secret', () => {
    // a read waits for the bookmarks it is given: a caller must not name one that never comes
    const issued = tokens.issue(['FB:x']);
    const bytes = Buffer.from(issued, 'base64url');
    const altered = Buffer.from(bytes);
    altered[altered.length - 3] ^= 1;
    const unsigned = Buffer.from(JSON.stringify(['FB:kcwQ/llwAX99TridzGlfIFIKdsoAf///kA==']));
    const notOurs = [
      new BookmarkTokens('another-internal-secret-of-32-characters-or-more').issue(['FB:x']),
      new BookmarkTokens(undefined).issue(['FB:x']),
      altered.toString('base64url'),
      unsigned.toString('base64url'),
      Buffer.concat([Buffer.alloc(16), unsigned]).toString('base64url'),
      'abc',
    ];
    for (const token of notOurs) expect(tokens.read(token), token).to.deep.equal([]);
  });

  it('refuses a value that is not a token at all with the 422 array form naming the header', () => {
    for (const token of ['not base64!', 'has space', 'x'.repeat(5000)]) {
      expect(() => tokens.read(token), token.slice(0, 20))
        .to.throw(RequestValidationError)
        .with.property('issues')
        .that.deep.includes({
          loc: ['header', BOOKMARK_HEADER],
          msg: 'not a bookmark token this service issued',
          type: 'value_error',
          input: null,
        });
    }
  });

  it('classifies exactly the GET operations of the OpenAPI document as reads', () => {
    const doc = parse(
      readFileSync(join(__dirname, '..', '..', 'openapi', 'graph-design-service.yaml'), 'utf8'),
    ) as { paths: Record<string, Record<string, { operationId?: string }>> };
    let reads = 0;
    for (const operations of Object.values(doc.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        if (!operation.operationId) continue;
        expect(isReadOperation(operation.operationId), operation.operationId).to.equal(
          method === 'get',
        );
        if (method === 'get') reads++;
      }
    }
    expect(reads).to.be.greaterThan(10);
  });

  it('carries a write committed in one process to a read served by another, through the header only', async () => {
    // Process A: the write. What the Executor does after a commit: record the bookmark.
    const writeInA = bookmarked(tokens, 'applyDeltas', async () => {
      currentBookmarkScope()?.written.push('FB:tx-41');
      return { status: 200, body: { applied: true } };
    });
    // Process B: the read. What the Executor does before a session: start from `incoming`.
    let seenByB: readonly string[] | undefined;
    const readInB = bookmarked(new BookmarkTokens(SECRET), 'getBranchGraph', async () => {
      seenByB = currentBookmarkScope()?.incoming;
      currentBookmarkScope()?.written.push('FB:tx-42'); // a read's own write is not answered
      return { status: 200, body: {} };
    });
    const written = await writeInA(request());
    const token = written.headers?.[BOOKMARK_HEADER];
    expect(token).to.be.a('string');
    // only the opaque string crosses between the processes
    const read = await readInB(request({ [BOOKMARK_HEADER.toLowerCase()]: token }));
    expect(seenByB).to.deep.equal(['FB:tx-41']);
    expect(read.headers?.[BOOKMARK_HEADER]).to.equal(undefined);
    // concurrent requests do not share a scope
    const [a, b] = await Promise.all([
      readInB(request({ [BOOKMARK_HEADER.toLowerCase()]: tokens.issue(['FB:1']) })).then(
        () => seenByB,
      ),
      writeInA(request()),
    ]);
    expect(a).to.deep.equal(['FB:1']);
    expect(b.headers?.[BOOKMARK_HEADER]).to.equal(token);
  });

  it('answers no header when nothing was committed', async () => {
    const dryRun = bookmarked(tokens, 'validateDeltas', async () => ({ status: 200, body: {} }));
    expect((await dryRun(request())).headers).to.equal(undefined);
  });
});
