import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import {
  EDGE_FIELDS,
  FieldInput,
  FILE_LAYOUT,
  INPUT_LAYOUT,
  NODE_FIELD_NAMES,
  NODE_FIELDS,
  NODE_KINDS,
  NODE_STATUSES,
  NodeFieldSpec,
  PORT_FIELDS,
  VERIFICATION_FIELDS,
  WIRE_LAYOUT,
} from './nodeModel';

type Schema = {
  properties?: Record<string, Schema>;
  items?: Schema;
  allOf?: Schema[];
  $ref?: string;
  maxLength?: number;
  maxItems?: number;
  pattern?: string;
  required?: string[];
  enum?: unknown[];
  anyOf?: Schema[];
  type?: string;
  format?: string;
  default?: unknown;
  'x-node-kinds'?: string[];
  'x-external-only'?: boolean;
};
type Doc = { components: { schemas: Record<string, Schema> } };

const DOC_PATH = join(__dirname, '..', '..', 'openapi', 'graph-design-service.yaml');
const DOC = parse(readFileSync(DOC_PATH, 'utf8')) as Doc;
/** A copy of the document that a test may change. */
const load = () => structuredClone(DOC);

/** No default: the field is required (a symbol, so JSON of it differs from every value). */
const NONE = Symbol('no default');

/** A property's default as the document states it: `default`, else null when nullable. */
function documentedDefault(schema: Schema): unknown {
  if ('default' in schema) return schema.default;
  return schema.anyOf?.some((s) => s.type === 'null') ? null : NONE;
}

const sorted = (values: Iterable<string>) => [...values].sort();
/** JSON with object keys sorted: equal values give equal text whatever their key order. */
const canonical = (value: unknown) =>
  JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1)))
      : v,
  );
const same = (a: unknown, b: unknown) => canonical(a) === canonical(b);

/**
 * Every way the document and the node model disagree, as sentences. `model` maps a
 * field to its default (NONE: required) for the port, verification and wire schemas.
 */
function objectDisagreements(
  doc: Doc,
  name: string,
  model: Record<string, unknown>,
  requiredAll = false,
): string[] {
  const schema = doc.components.schemas[name];
  const problems: string[] = [];
  const props = schema.properties ?? {};
  if (!same(sorted(Object.keys(props)), sorted(Object.keys(model)))) {
    problems.push(
      `${name} has ${sorted(Object.keys(props))}; the model ${sorted(Object.keys(model))}`,
    );
    return problems;
  }
  for (const [field, fallback] of Object.entries(model)) {
    const required = schema.required?.includes(field) ?? false;
    if (requiredAll) {
      if (!required) problems.push(`${name}.${field} is not required`);
      continue;
    }
    const documented = required ? NONE : documentedDefault(props[field]);
    if (!same(documented, fallback))
      problems.push(`${name}.${field}: default ${String(documented)} in the document`);
  }
  return problems;
}

function nodeDisagreements(doc: Doc): string[] {
  const schemas = doc.components.schemas;
  const problems: string[] = [];
  const data = schemas.NodeData.properties ?? {};
  const documented = Object.keys(data).filter((f) => f !== 'kind' && f !== 'parent_id');
  if (!same(sorted(documented), sorted(NODE_FIELD_NAMES)))
    problems.push(`NodeData has ${sorted(documented)}; the model ${sorted(NODE_FIELD_NAMES)}`);
  for (const field of NODE_FIELD_NAMES) {
    const schema = data[field];
    if (!schema) continue;
    const spec: NodeFieldSpec = NODE_FIELDS[field];
    if (!same(documentedDefault(schema), spec.default))
      problems.push(
        `NodeData.${field}: default ${String(documentedDefault(schema))} in the document`,
      );
    if (!same(sorted(schema['x-node-kinds'] ?? NODE_KINDS), sorted(spec.kinds ?? NODE_KINDS)))
      problems.push(`NodeData.${field}: carried by ${schema['x-node-kinds']} in the document`);
    if ((schema['x-external-only'] ?? false) !== (spec.externalOnly ?? false))
      problems.push(`NodeData.${field}: x-external-only differs`);
  }
  const wire = schemas.WireNodeData;
  const onWire = NODE_FIELD_NAMES.filter((f) => NODE_FIELDS[f].wire !== 'never');
  if (!same(sorted(Object.keys(wire.properties ?? {})), sorted(onWire)))
    problems.push(
      `WireNodeData has ${sorted(Object.keys(wire.properties ?? {}))}; the model ${sorted(onWire)}`,
    );
  for (const field of wire.required ?? []) {
    if (NODE_FIELDS[field as keyof typeof NODE_FIELDS]?.wire !== 'always')
      problems.push(`WireNodeData.${field} is required; the model does not always present it`);
  }
  for (const field of onWire) {
    if (NODE_FIELDS[field].wire === 'by_kind' && wire.required?.includes(field))
      problems.push(`WireNodeData.${field} is required; the model presents it by kind`);
  }
  return problems;
}

/** The string branch of a property (of a nullable anyOf, the one that is not `""`). */
const stringOf = (schema: Schema) =>
  schema.anyOf?.find((s) => s.type === 'string' && s.enum === undefined) ?? schema;

/** What the document says a field holds, in the terms of the model's FieldInput. */
function documentedInput(schema: Schema): FieldInput | string {
  const text = stringOf(schema);
  const nullable = schema.anyOf?.some((s) => s.type === 'null') ?? false;
  if (schema.type === 'boolean') return { read: 'boolean' };
  if (schema.allOf?.[0]?.$ref === '#/components/schemas/NodeStatus') return { read: 'status' };
  if (schema.type === 'array') {
    const items = schema.items ?? {};
    const max = schema.maxItems ?? -1;
    if (items.$ref === '#/components/schemas/Port') return { read: 'ports', max };
    if (items.$ref === '#/components/schemas/Verification') return { read: 'verifications', max };
    if (items.format === 'uuid') return { read: 'uuid_list', max };
    return { read: 'text_list', max, itemMax: items.maxLength ?? -1 };
  }
  if (text.type !== 'string') return 'no type the model reads';
  if (!nullable) return { read: 'text', max: text.maxLength ?? -1 };
  const input: FieldInput = { read: 'nullable_text', max: text.maxLength ?? -1 };
  if (text.pattern === '^https?://') input.url = true;
  return input;
}

function inputDisagreements(doc: Doc): string[] {
  const data = doc.components.schemas.NodeData.properties ?? {};
  return NODE_FIELD_NAMES.filter((f) => data[f])
    .filter((f) => !same(documentedInput(data[f]), NODE_FIELDS[f].input))
    .map((f) => `NodeData.${f}: the document says ${JSON.stringify(documentedInput(data[f]))}`);
}

function disagreements(doc: Doc): string[] {
  const withId = (fields: Record<string, unknown>) => ({
    id: NONE,
    ...Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, v === undefined ? NONE : v])),
  });
  return [
    ...nodeDisagreements(doc),
    ...inputDisagreements(doc),
    ...objectDisagreements(doc, 'Port', withId(PORT_FIELDS)),
    ...objectDisagreements(doc, 'WirePort', withId(PORT_FIELDS), true),
    ...objectDisagreements(doc, 'Verification', withId(VERIFICATION_FIELDS)),
    ...objectDisagreements(doc, 'WireVerification', withId(VERIFICATION_FIELDS), true),
    ...objectDisagreements(doc, 'Edge', withId(EDGE_FIELDS)),
    ...objectDisagreements(
      doc,
      'WireEdge',
      { ...withId(EDGE_FIELDS), source: NONE, target: NONE },
      true,
    ),
  ];
}

describe('node model: openapi/graph-design-service.yaml and shared/model agree', () => {
  it('on the node kinds and statuses', () => {
    const schemas = load().components.schemas;
    expect(schemas.NodeKind.enum).to.deep.equal([...NODE_KINDS]);
    expect(schemas.NodeStatus.enum).to.deep.equal([...NODE_STATUSES]);
  });

  it('on every field of nodes, ports, verifications and wires: its default, type, limits and the kinds that carry it', () => {
    expect(disagreements(load())).to.deep.equal([]);
  });

  it('lays out the parsed write shape, the read shape and the graph file with each of their fields once', () => {
    const onWire = NODE_FIELD_NAMES.filter((f) => NODE_FIELDS[f].wire !== 'never');
    expect(sorted(WIRE_LAYOUT)).to.deep.equal(sorted(onWire));
    expect(WIRE_LAYOUT).to.have.length(new Set(WIRE_LAYOUT).size);
    expect(sorted(FILE_LAYOUT)).to.deep.equal(sorted(NODE_FIELD_NAMES));
    expect(FILE_LAYOUT).to.have.length(new Set(FILE_LAYOUT).size);
    const data = Object.keys(load().components.schemas.NodeData.properties ?? {});
    expect(sorted(INPUT_LAYOUT)).to.deep.equal(sorted(data));
    expect(INPUT_LAYOUT).to.have.length(new Set(INPUT_LAYOUT).size);
  });

  it('every kind-restricted field says why another kind may not carry it', () => {
    for (const field of NODE_FIELD_NAMES) {
      const spec: NodeFieldSpec = NODE_FIELDS[field];
      expect(spec.kinds === undefined, field).to.equal(spec.refusal === undefined);
    }
  });

  describe('notices a field the document and the model do not share', () => {
    it('a NodeData field added to the document only', () => {
      const doc = load();
      doc.components.schemas.NodeData.properties!.owner = { type: 'string', default: '' };
      expect(disagreements(doc).join('\n')).to.match(/NodeData has .*owner/);
    });

    it('a NodeData field the document drops', () => {
      const doc = load();
      delete doc.components.schemas.NodeData.properties!.language;
      expect(disagreements(doc).join('\n')).to.match(/NodeData has .*; the model .*language/);
    });

    it('a default or the kinds that carry a field changed in the document', () => {
      const doc = load();
      const data = doc.components.schemas.NodeData.properties!;
      data.status.default = 'pending';
      data.path_prefix['x-node-kinds'] = ['boundary', 'state'];
      const found = disagreements(doc).join('\n');
      expect(found).to.include('NodeData.status: default pending');
      expect(found).to.include('NodeData.path_prefix: carried by boundary,state');
    });

    it('a port, verification or wire field added to the document only', () => {
      const doc = load();
      doc.components.schemas.Port.properties!.unit = { type: 'string', default: '' };
      doc.components.schemas.WireVerification.properties!.date = { type: 'string' };
      doc.components.schemas.Edge.properties!.label = { type: 'string' };
      const found = disagreements(doc).join('\n');
      expect(found).to.match(/^Port has .*unit/m);
      expect(found).to.match(/^WireVerification has .*date/m);
      expect(found).to.match(/^Edge has .*label/m);
    });

    it('a limit or a type of a field changed in the document', () => {
      const doc = load();
      const data = doc.components.schemas.NodeData.properties!;
      data.name.maxLength = 100;
      data.constraints.maxItems = 7;
      data.is_test_node = { type: 'string' };
      const found = disagreements(doc).join('\n');
      expect(found).to.include('NodeData.name: the document says {"read":"text","max":100}');
      expect(found).to.include('NodeData.constraints: the document says');
      expect(found).to.include('NodeData.is_test_node: the document says');
    });

    it('a field shown by kind that the read shape requires', () => {
      const doc = load();
      doc.components.schemas.WireNodeData.required!.push('user_kind');
      expect(disagreements(doc).join('\n')).to.include('WireNodeData.user_kind is required');
    });
  });
});
