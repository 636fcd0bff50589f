import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { LIST_LIMITS, TEXT_LIMITS } from '../../../shared/model/fieldLimits';
import { parseDeltaBatch } from './parseDeltas';
import { DeltaError } from '../../../shared/errors/domainErrors';

type Schema = Record<string, unknown> & {
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
};

const doc = parse(
  readFileSync(join(__dirname, '..', '..', '..', 'openapi', 'graph-design-service.yaml'), 'utf8'),
) as { components: { schemas: Record<string, Schema> } };
const schemas = doc.components.schemas;

/** The string schema of a property (the string branch of a nullable anyOf). */
function stringOf(schema: Schema): Schema {
  return schema.anyOf?.find((s) => s.type === 'string' && s.enum === undefined) ?? schema;
}

const prop = (name: string, key: string) => schemas[name].properties?.[key] as Schema;

describe('field limits: the parser and the OpenAPI document state the same maxima', () => {
  const textFields: [string, string, number][] = [
    ['NodeData', 'name', TEXT_LIMITS.name],
    ['NodeData', 'description', TEXT_LIMITS.description],
    ['NodeData', 'user_kind', TEXT_LIMITS.label],
    ['NodeData', 'language', TEXT_LIMITS.label],
    ['NodeData', 'external_kind', TEXT_LIMITS.label],
    ['NodeData', 'protocol', TEXT_LIMITS.label],
    ['NodeData', 'path_prefix', TEXT_LIMITS.path_prefix],
    ['NodeData', 'documentation_url', TEXT_LIMITS.documentation_url],
    ['Port', 'name', TEXT_LIMITS.name],
    ['Port', 'type', TEXT_LIMITS.type],
    ['Port', 'description', TEXT_LIMITS.description],
    ['Port', 'contract_name', TEXT_LIMITS.contract_name],
    ['Verification', 'text', TEXT_LIMITS.verificationText],
    ['Verification', 'type', TEXT_LIMITS.verificationType],
    ['WireNodeData', 'name', TEXT_LIMITS.name],
    ['WireNodeData', 'description', TEXT_LIMITS.description],
    ['WirePort', 'type', TEXT_LIMITS.type],
    ['WireVerification', 'text', TEXT_LIMITS.verificationText],
  ];
  for (const [schema, key, max] of textFields) {
    it(`${schema}.${key}: maxLength ${max}`, () => {
      expect(stringOf(prop(schema, key)).maxLength).to.equal(max);
    });
  }

  it('list items and list sizes', () => {
    expect(prop('NodeData', 'aliases').maxItems).to.equal(LIST_LIMITS.aliases);
    expect(prop('NodeData', 'aliases').items?.maxLength).to.equal(TEXT_LIMITS.name);
    expect(prop('NodeData', 'constraints').maxItems).to.equal(LIST_LIMITS.constraints);
    expect(prop('NodeData', 'constraints').items?.maxLength).to.equal(TEXT_LIMITS.constraint);
    expect(prop('NodeData', 'verifications').maxItems).to.equal(LIST_LIMITS.verifications);
    expect(prop('NodeData', 'source_decisions').maxItems).to.equal(LIST_LIMITS.source_decisions);
    for (const channel of ['inputs', 'outputs', 'config']) {
      expect(prop('NodeData', channel).maxItems).to.equal(LIST_LIMITS.ports);
      expect(prop('WireNodeData', channel).maxItems).to.equal(LIST_LIMITS.ports);
    }
  });

  it('the parser refuses one character over each text limit, naming the field', () => {
    const id = '00000000-0000-4000-8000-000000000001';
    const portId = '00000000-0000-4000-8000-000000000002';
    const cases: [Record<string, unknown>, string][] = [
      [{ name: 'x'.repeat(TEXT_LIMITS.name + 1) }, 'name'],
      [{ description: 'x'.repeat(TEXT_LIMITS.description + 1) }, 'description'],
      [{ aliases: ['x'.repeat(TEXT_LIMITS.name + 1)] }, 'aliases[0]'],
      [{ constraints: ['x'.repeat(TEXT_LIMITS.constraint + 1)] }, 'constraints[0]'],
      [{ inputs: [{ id: portId, type: 't'.repeat(TEXT_LIMITS.type + 1) }] }, 'inputs[0].type'],
      [{ user_kind: 'k'.repeat(TEXT_LIMITS.label + 1) }, 'user_kind'],
    ];
    for (const [data, field] of cases) {
      const body = { deltas: [{ type: 'add_node', node: { id, data } }] };
      let caught: unknown;
      try {
        parseDeltaBatch(body, { maxDeltas: 10, requireVersion: false });
      } catch (error) {
        caught = error;
      }
      expect(caught, field).to.be.instanceOf(DeltaError);
      const envelope = (caught as DeltaError).envelope;
      expect(envelope.error).to.equal('validation_error');
      expect(envelope.field).to.equal(`deltas[0].node.data.${field}`);
      expect(envelope.message.length).to.be.below(100);
    }
  });

  it('accepts each text field at exactly its limit (characters, not UTF-16 units)', () => {
    const id = '00000000-0000-4000-8000-000000000001';
    const data = { name: '😀'.repeat(TEXT_LIMITS.name) };
    const batch = parseDeltaBatch(
      { deltas: [{ type: 'add_node', node: { id, data } }] },
      { maxDeltas: 10, requireVersion: false },
    );
    expect(batch.deltas).to.have.length(1);
  });
});
