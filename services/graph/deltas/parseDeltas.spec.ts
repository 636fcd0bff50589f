/** Unit tests of the delta parser: delta types, empty-string and key-presence rules, the per-delta envelope. */
import { expect } from 'chai';
import { DeltaError } from '../../../shared/errors/domainErrors';
import { NODE_FIELD_NAMES, NODE_FIELDS } from '../../../shared/model/nodeModel';
import type { AddNode } from './deltaTypes';
import { parseDeltaBatch } from './parseDeltas';

const ID = '11111111-1111-4111-8111-111111111111';
const opts = { maxDeltas: 3, requireVersion: true };

function envelopeOf(work: () => unknown) {
  try {
    work();
  } catch (error) {
    expect(error).to.be.instanceOf(DeltaError);
    return (error as DeltaError).envelope;
  }
  throw new Error('expected a DeltaError');
}

describe('parseDeltaBatch', () => {
  it('reads every NodeData field of the node model (none is dropped as an unknown key)', () => {
    const data = Object.fromEntries(NODE_FIELD_NAMES.map((f) => [f, NODE_FIELDS[f].default]));
    const batch = parseDeltaBatch(
      { deltas: [{ type: 'add_node', node: { id: ID, data } }] },
      { maxDeltas: 1, requireVersion: false },
    );
    const parsed = (batch.deltas[0] as AddNode).node.data;
    expect(Object.keys(parsed).sort()).to.deep.equal([...NODE_FIELD_NAMES].sort());
  });

  it('parses an add_node with defaults and key presence', () => {
    const batch = parseDeltaBatch(
      {
        deltas: [{ type: 'add_node', node: { id: ID, data: { name: 'n' } } }],
        expected_version: 2,
      },
      opts,
    );
    expect(batch.expectedVersion).to.equal(2);
    expect(batch.positions).to.equal(null);
    expect(batch.deltas[0]).to.deep.equal({
      type: 'add_node',
      index: 0,
      node: { id: ID, kind: 'behavior', parent_id: null, data: { name: 'n' } },
    });
  });

  it('coerces empty strings to null and keeps nulls as present keys', () => {
    const batch = parseDeltaBatch(
      {
        deltas: [
          { type: 'update_node_data', node_id: ID, after: { user_kind: '', protocol: null } },
        ],
        expected_version: 0,
      },
      opts,
    );
    expect(batch.deltas[0]).to.deep.include({ after: { user_kind: null, protocol: null } });
  });

  it('fills the seven envelope keys', () => {
    const env = envelopeOf(() =>
      parseDeltaBatch(
        { deltas: [{ type: 'add_node', node: { id: 'x' } }], expected_version: 0 },
        opts,
      ),
    );
    expect(env).to.deep.equal({
      error: 'validation_error',
      field: 'deltas[0].node.id',
      recovery_hint: null,
      delta_index: 0,
      delta_type: 'add_node',
      entity_id: 'x',
      message: 'id must be a uuid',
    });
  });

  it('names unknown types, non-objects and strict booleans', () => {
    expect(
      envelopeOf(() => parseDeltaBatch({ deltas: [{ type: 'nope' }], expected_version: 0 }, opts))
        .error,
    ).to.equal('unknown_delta_type');
    expect(
      envelopeOf(() => parseDeltaBatch({ deltas: [7], expected_version: 0 }, opts)).error,
    ).to.equal('malformed_delta_field');
    const env = envelopeOf(() =>
      parseDeltaBatch(
        {
          deltas: [{ type: 'add_node', node: { id: ID, data: { is_external: 1 } } }],
          expected_version: 0,
        },
        opts,
      ),
    );
    expect(env.field).to.equal('deltas[0].node.data.is_external');
  });

  it('enforces the batch size and expected_version rules', () => {
    const four = Array.from({ length: 4 }, () => ({ type: 'delete_edge', edge_id: ID }));
    expect(
      envelopeOf(() => parseDeltaBatch({ deltas: four, expected_version: 0 }, opts)).field,
    ).to.equal('deltas');
    expect(
      envelopeOf(() => parseDeltaBatch({ deltas: [{ type: 'delete_edge', edge_id: ID }] }, opts))
        .field,
    ).to.equal('expected_version');
    expect(parseDeltaBatch({ deltas: [] }, opts).deltas).to.deep.equal([]);
    expect(
      parseDeltaBatch(
        { deltas: [{ type: 'delete_edge', edge_id: ID }] },
        { ...opts, requireVersion: false },
      ).expectedVersion,
    ).to.equal(null);
  });

  it('requires the parent_id key on reparent_node but accepts null', () => {
    expect(
      envelopeOf(() =>
        parseDeltaBatch(
          { deltas: [{ type: 'reparent_node', node_id: ID }], expected_version: 0 },
          opts,
        ),
      ).field,
    ).to.equal('deltas[0].parent_id');
    const ok = parseDeltaBatch(
      { deltas: [{ type: 'reparent_node', node_id: ID, parent_id: null }], expected_version: 0 },
      opts,
    );
    expect(ok.deltas[0]).to.deep.include({ parent_id: null });
  });
});
