/**
 * The MCP tool list against the OpenAPI document the service serves: one tool
 * per agent-facing operation, and every tool's name, description, input schema,
 * output schema and annotations taken from its operation. Over both transports.
 */
import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { currentHarness, newUser } from './support/harness';
import { connect, Transport } from './support/mcpClients';

type Json = Record<string, any>;

/** The operations an agent works with, each of which must be a tool. */
const AGENT_OPERATIONS = [
  'listProjects',
  'createProject',
  'forkBranch',
  'listBranches',
  'discardBranch',
  'getMainGraph',
  'getBranchGraph',
  'getSubtree',
  'getNeighborhood',
  'getBoundary',
  'getTopLevel',
  'getMainTopLevel',
  'searchNodes',
  'searchMainNodes',
  'validateDeltas',
  'applyDeltas',
  'revertBranch',
  'getMergePreview',
  'mergeBranch',
  'rebaseBranch',
  'getBranchDiff',
  'getMainDiff',
  'listBranchChanges',
  'getNodeHistory',
  'getMainNodeHistory',
  'listDecisions',
  'getDecision',
  'exportBranchFile',
  'importProject',
  'openChangeRequest',
  'listChangeRequests',
  'getChangeRequest',
  'reviewChangeRequest',
  'getProtectionRules',
];

const snake = (id: string) => id.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** The document's schema as a self-contained JSON Schema: refs into $defs, OpenAPI-only keys gone. */
function normalized(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(normalized);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Json = {};
  for (const [k, v] of Object.entries(schema as Json)) {
    if (['example', 'discriminator', 'xml', 'externalDocs'].includes(k) || k.startsWith('x-'))
      continue;
    out[k] =
      k === '$ref' && typeof v === 'string'
        ? v.replace('#/components/schemas/', '#/$defs/')
        : normalized(v);
  }
  return out;
}

function resolve(doc: Json, value: any): any {
  while (value && typeof value.$ref === 'string') {
    value = value.$ref
      .slice(2)
      .split('/')
      .reduce((node: any, part: string) => node[part], doc);
  }
  return value;
}

function refsIn(schema: unknown, found = new Set<string>()): Set<string> {
  if (schema && typeof schema === 'object') {
    for (const [k, v] of Object.entries(schema as Json)) {
      if (k === '$ref' && typeof v === 'string') found.add(v);
      else refsIn(v, found);
    }
  }
  return found;
}

/** Every $ref of a tool schema names one of its $defs, each equal to the document's component. */
function expectSelfContained(doc: Json, schema: Json, where: string) {
  for (const ref of refsIn(schema)) {
    expect(ref, where).to.match(/^#\/\$defs\//);
    const name = ref.slice('#/$defs/'.length);
    expect(schema.$defs?.[name], `${where}: $defs.${name}`).to.deep.equal(
      normalized(doc.components.schemas[name]),
    );
  }
}

for (const transport of ['http', 'stdio'] as Transport[]) {
  describe(`MCP tool catalog over ${transport}`, function () {
    this.timeout(60_000);
    let client: Client;
    let doc: Json;
    let operations: Map<string, { method: string; path: string; op: Json }>;

    before(async () => {
      const user = await newUser();
      client = await connect(transport, user.token);
      doc = (await (await fetch(`${currentHarness().service.url}/openapi.json`)).json()) as Json;
      operations = new Map();
      for (const [path, item] of Object.entries(doc.paths as Json))
        for (const [method, op] of Object.entries(item as Json))
          if (op && typeof op === 'object' && 'operationId' in op)
            operations.set(op.operationId as string, { method: method.toUpperCase(), path, op });
    });
    after(async () => client?.close());

    it('offers exactly one tool per agent-facing operation, named after its operationId', async () => {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).to.deep.equal(AGENT_OPERATIONS.map(snake).sort());
      for (const id of AGENT_OPERATIONS) expect(operations.has(id), id).to.equal(true);
    });

    it("takes every tool's description, input, output and hints from its operation", async () => {
      const { tools } = await client.listTools();
      for (const tool of tools as Json[]) {
        const id = AGENT_OPERATIONS.find((o) => snake(o) === tool.name) as string;
        const { method, path, op } = operations.get(id)!;
        const where = `${tool.name} (${method} ${path})`;
        expect(tool.title, where).to.equal(op.summary);
        expect(tool.description.startsWith(`${op.summary}\n\n${op.description}`), where).to.equal(
          true,
        );

        // input: parameters and body properties, with the document's schemas and required lists
        const input = tool.inputSchema as Json;
        expect(input.type, where).to.equal('object');
        const expected: Json = {};
        const required: string[] = [];
        for (const p of (op.parameters ?? []).map((x: unknown) => resolve(doc, x))) {
          const name = p.in === 'header' ? p.name.toLowerCase().replace(/-/g, '_') : p.name;
          expected[name] = normalized({ ...p.schema, description: p.description });
          if (p.in === 'path' || p.required) required.push(name);
        }
        const bodyRef = op.requestBody?.content?.['application/json']?.schema;
        if (bodyRef) {
          const body = resolve(doc, bodyRef);
          for (const [name, schema] of Object.entries(body.properties as Json))
            expected[name] = normalized(schema);
          if (op.requestBody.required) required.push(...(body.required ?? []));
        }
        expect(input.properties, where).to.deep.equal(expected);
        expect([...(input.required ?? [])].sort(), where).to.deep.equal(required.sort());
        expectSelfContained(doc, input, `${where} input`);

        // output: the 2xx JSON body
        const code = Object.keys(op.responses).find((c) => c.startsWith('2')) as string;
        const out = resolve(doc, op.responses[code].content['application/json'].schema);
        expect(tool.outputSchema.type, where).to.equal('object');
        expect(tool.outputSchema.properties, where).to.deep.equal(normalized(out.properties));
        expect(tool.outputSchema.required, where).to.deep.equal(out.required);
        expectSelfContained(doc, tool.outputSchema, `${where} output`);

        // hints: the method's, except a dry run (read-only POST) and the destructive writes
        const hints = tool.annotations;
        const readOnly = method === 'GET' || id === 'validateDeltas';
        expect(hints.readOnlyHint, where).to.equal(readOnly);
        expect(hints.destructiveHint, where).to.equal(
          ['DELETE'].includes(method) ||
            ['applyDeltas', 'revertBranch', 'mergeBranch', 'rebaseBranch'].includes(id),
        );
        expect(hints.idempotentHint, where).to.equal(
          readOnly ||
            method === 'DELETE' ||
            ['applyDeltas', 'revertBranch', 'rebaseBranch'].includes(id),
        );
      }
    });

    it('names the operations it leaves out, and they are not agent work', async () => {
      const left = [...operations.keys()].filter((id) => !AGENT_OPERATIONS.includes(id)).sort();
      expect(left).to.deep.equal(
        [
          'deleteProject',
          'getHealth',
          'getMetrics',
          'getReady',
          'renameBranch',
          'updateProject',
          // the project owner's settings, over HTTP
          'setProtectionRules',
          'createWebhook',
          'listWebhooks',
          'deleteWebhook',
          'listWebhookDeliveries',
          // the feed is an MCP resource, not a tool; a stream is no tool call
          'listProjectEvents',
          'streamProjectEvents',
        ].sort(),
      );
    });
  });
}
