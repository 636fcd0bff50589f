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
    const deltas = [{ type: 'delete_node', node_id: 'n' }];
    const a = requestOf(tool('apply_deltas'), { branch_id: 'b', deltas, expected_version: 1 });
    const b = requestOf(tool('apply_deltas'), { expected_version: 1, deltas, branch_id: 'b' });
    const c = requestOf(tool('apply_deltas'), { branch_id: 'b', deltas, expected_version: 2 });
    expect(keyOf(a)).to.equal(keyOf(b));
    expect(keyOf(a)).to.not.equal(keyOf(c));
    expect(keyOf(a)).to.equal(
      derivedIdempotencyKey('applyDeltas', '/v1/branches/b/deltas', {
        deltas,
        expected_version: 1,
      }),
    );
    expect(keyOf(a)).to.match(/^mcp-[0-9a-f]{64}$/);
  });

  it('derives no Idempotency-Key for a batch without deltas: moving a node back must apply again', () => {
    // positions do not move the version, so the same positions-only arguments can
    // legitimately be sent twice (a node moved away and back); a derived key would
    // replay the first answer and leave the node where it was
    const positions = { n: { x: 1, y: 2 } };
    for (const args of [
      { branch_id: 'b', deltas: [], positions, expected_version: 1 },
      { branch_id: 'b', deltas: [], positions },
      { branch_id: 'b', positions },
    ])
      expect(keyOf(requestOf(tool('apply_deltas'), args)), JSON.stringify(args)).to.equal(
        undefined,
      );
    // the agent's own key is still sent
    const own = requestOf(tool('apply_deltas'), {
      branch_id: 'b',
      deltas: [],
      idempotency_key: 'k',
    });
    expect(keyOf(own)).to.equal('k');
  });
});

function keyOf(built: unknown): string | undefined {
  return (built as { request: { headers: Record<string, string> } }).request.headers[
    'Idempotency-Key'
  ];
}
