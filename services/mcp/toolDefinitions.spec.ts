import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import type { OpenApiDocument } from './openApiSchemas';
import { derivedIdempotencyKey, requestOf } from './toolCalls';
import { catalogProblems, ToolDefinition, toolDefinitions } from './toolDefinitions';

const DOC = parse(
  readFileSync(join(__dirname, '..', '..', 'openapi', 'graph-design-service.yaml'), 'utf8'),
) as OpenApiDocument;

function tool(name: string): ToolDefinition {
  const found = toolDefinitions(DOC).find((t) => t.name === name);
  if (!found) throw new Error(`no tool ${name}`);
  return found;
}

describe('MCP tool definitions', () => {
  it('agrees with the document: every operation classified, every entry an operation', () => {
    expect(catalogProblems(DOC)).to.deep.equal([]);
  });

  it('names an operation the catalog does not classify, and offers no tool for it', () => {
    const doc = structuredClone(DOC);
    doc.paths['/v1/extra'] = { get: { operationId: 'getExtra', responses: {} } };
    expect(catalogProblems(doc)).to.deep.equal([
      'operation getExtra is neither a tool nor left out',
    ]);
    expect(toolDefinitions(doc).map((t) => t.name)).to.not.include('get_extra');
  });

  it('names a catalog entry the document lacks', () => {
    const doc = structuredClone(DOC);
    delete doc.paths['/v1/decisions'];
    expect(catalogProblems(doc)).to.deep.equal([
      'the catalog names listDecisions, which the document does not have',
    ]);
  });

  it('splits arguments into path, query, header and body', () => {
    const apply = requestOf(tool('apply_deltas'), {
      branch_id: 'b/1',
      idempotency_key: 'k-1',
      deltas: [],
      expected_version: 3,
    });
    expect(apply).to.deep.equal({
      request: {
        method: 'POST',
        path: '/v1/branches/b%2F1/deltas',
        headers: { 'Idempotency-Key': 'k-1' },
        body: { deltas: [], expected_version: 3 },
      },
    });
    const list = requestOf(tool('list_decisions'), {
      project_id: 'p',
      state: ['accepted', 'retired'],
      limit: 5,
    });
    expect(list).to.deep.equal({
      request: {
        method: 'GET',
        path: '/v1/decisions?project_id=p&state=accepted&state=retired&limit=5',
        headers: {},
      },
    });
  });

  it('answers a missing path argument with the array-form 422 body', () => {
    const built = requestOf(tool('get_subtree'), { branch_id: 'b' });
    expect(built).to.have.property('invalid');
    const result = (built as { invalid: { content: { text: string }[]; isError: boolean } })
      .invalid;
    expect(result.isError).to.equal(true);
    expect(JSON.parse(result.content[0].text)).to.deep.equal({
      detail: [{ loc: ['path', 'node_id'], msg: 'Field required', type: 'missing' }],
    });
  });

  it('derives the Idempotency-Key from the arguments, whatever their key order', () => {
    const a = requestOf(tool('apply_deltas'), { branch_id: 'b', deltas: [], expected_version: 1 });
    const b = requestOf(tool('apply_deltas'), { expected_version: 1, deltas: [], branch_id: 'b' });
    const c = requestOf(tool('apply_deltas'), { branch_id: 'b', deltas: [], expected_version: 2 });
    const key = (r: unknown) =>
      (r as { request: { headers: Record<string, string> } }).request.headers['Idempotency-Key'];
    expect(key(a)).to.equal(key(b));
    expect(key(a)).to.not.equal(key(c));
    expect(key(a)).to.equal(
      derivedIdempotencyKey('applyDeltas', '/v1/branches/b/deltas', {
        deltas: [],
        expected_version: 1,
      }),
    );
    expect(key(a)).to.match(/^mcp-[0-9a-f]{64}$/);
  });
});
