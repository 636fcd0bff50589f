/**
 * The recorder's writing side without a service: recorded examples land in the examples
 * maps of their operation (request body and the response of their status), everything
 * else in the document stays byte for byte as it was (the point of editing through the
 * yaml Document API), and a capture that does not fit its operation is refused rather
 * than written somewhere wrong. And the SSE reader keeps each event as the schema
 * FeedStreamEvent describes it.
 */
import { expect } from 'chai';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathMatches, writeExamples } from './documentExamples';
import { parseEvents } from './eventStream';
import type { Capture } from './exampleSession';

const DOCUMENT = `# a comment that must stay
openapi: 3.1.0
paths:
  /v1/things/{thing_id}/poke:
    post:
      operationId: pokeThing
      description: |-
        Pokes. Long text that stays as it is.
      requestBody:
        content:
          application/json:
            schema:
              type: object
            examples:
              handWritten:
                summary: Old
                value:
                  force: 1
      responses:
        '200':
          content:
            application/json:
              schema:
                type: object # trailing comment
              examples:
                handWritten:
                  summary: Old
                  value: {}
        '404':
          $ref: '#/components/responses/NotFound'
`;

function capture(overrides: Partial<Capture>): Capture {
  return {
    operationId: 'pokeThing',
    name: 'poked',
    summary: "a thing's poke",
    method: 'POST',
    path: '/v1/things/5d1f/poke',
    request: { force: 2 },
    status: 200,
    mediaType: 'application/json',
    response: { poked: true, at: '2026-11-23T05:47:41.107Z', tags: [] },
    ...overrides,
  };
}

function written(captures: Capture[]): string {
  const file = join(mkdtempSync(join(tmpdir(), 'examples-')), 'doc.yaml');
  writeFileSync(file, DOCUMENT);
  writeExamples(file, captures);
  return readFileSync(file, 'utf8');
}

describe('recorded examples written into the document', () => {
  it('replaces the request and response examples maps and leaves every other line as it was', () => {
    const text = written([capture({})]);
    expect(text).to.contain(
      [
        '            examples:',
        '              poked:',
        `                summary: "Recorded: a thing's poke"`,
        '                value:',
        '                  force: 2',
      ].join('\n'),
    );
    expect(text).to.contain(
      [
        '                  value:',
        '                    poked: true',
        '                    at: 2026-11-23T05:47:41.107Z',
        '                    tags: []',
      ].join('\n'),
    );
    expect(text).not.to.contain('handWritten');
    const untouched = (doc: string) => doc.split('\n').filter((l) => !/^ {14,}/.test(l));
    expect(untouched(text)).to.deep.equal(untouched(DOCUMENT));
    expect(text).to.contain('type: object # trailing comment');
  });

  it('refuses a shared ($ref) answer, a call to another path, and two examples of one name', () => {
    expect(() => written([capture({ status: 404 })])).to.throw(/shared \(\$ref\) answer/);
    expect(() => written([capture({ path: '/v1/other/5d1f/poke' })])).to.throw(/is not pokeThing/);
    expect(() => written([capture({}), capture({})])).to.throw(/two examples named poked/);
  });

  it('matches a path to its template, query string and all', () => {
    expect(pathMatches('/v1/things/{thing_id}/poke', '/v1/things/ab-1/poke?limit=3')).to.equal(
      true,
    );
    expect(pathMatches('/v1/things/{thing_id}/poke', '/v1/things/a/b/poke')).to.equal(false);
  });
});

describe('events read from the stream', () => {
  it('keeps id, event and data (one line of JSON, as sent) and skips the retry hint, heartbeats and a partial event', () => {
    const text =
      'retry: 2000\n\n: heartbeat\n\nid: 7\nevent: branch_merged\ndata: {"seq":7}\n\nid: 8\nevent: batch';
    expect(parseEvents(text)).to.deep.equal([
      { id: '7', event: 'branch_merged', data: '{"seq":7}' },
    ]);
  });
});
