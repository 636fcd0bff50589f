/** Unit tests of the node-kind field matrix and port rules. */
import { expect } from 'chai';
import { DeltaError } from '../../../shared/errors/domainErrors';
import { checkNodeShape, NodeState } from './nodeShape';
import { applyPatch, emptyState } from './nodeState';

const ctx = { index: 0, type: 'add_node', entityId: 'n' };
const path = (f: string) => `deltas[0].node.data.${f}`;

function errorOf(state: NodeState): string | null {
  try {
    checkNodeShape(state, ctx, path);
    return null;
  } catch (error) {
    return (error as DeltaError).envelope.error + ':' + (error as DeltaError).envelope.field;
  }
}

describe('checkNodeShape', () => {
  it('accepts the defaults of every kind except io', () => {
    for (const kind of ['behavior', 'boundary', 'state', 'interface'] as const)
      expect(errorOf(emptyState(kind))).to.equal(null);
    expect(errorOf(emptyState('io'))).to.equal('io_port_shape:deltas[0].node.data.outputs');
  });

  it('refuses fields the kind may not carry', () => {
    expect(errorOf(applyPatch(emptyState('behavior'), { language: 'go' }))).to.equal(
      'field_not_allowed:deltas[0].node.data.language',
    );
    expect(errorOf(applyPatch(emptyState('state'), { is_external: true }))).to.equal(
      'field_not_allowed:deltas[0].node.data.is_external',
    );
    expect(
      errorOf(applyPatch(emptyState('boundary'), { is_external: true, external_kind: 'x' })),
    ).to.equal('field_not_allowed:deltas[0].node.data.external_kind');
  });

  it('requires external_kind on external behaviors', () => {
    expect(errorOf(applyPatch(emptyState('behavior'), { is_external: true }))).to.equal(
      'validation_error:deltas[0].node.data.external_kind',
    );
    expect(
      errorOf(applyPatch(emptyState('behavior'), { is_external: true, external_kind: 'saas' })),
    ).to.equal(null);
  });

  it('finds duplicate port names and ids across channels, exempting empty names', () => {
    const a = { id: 'a', name: 'x' };
    expect(
      errorOf(
        applyPatch(emptyState('behavior'), { inputs: [a], outputs: [{ id: 'b', name: 'x' }] }),
      ),
    ).to.equal('duplicate_port_name:deltas[0].node.data.outputs[0].name');
    expect(
      errorOf(
        applyPatch(emptyState('behavior'), { inputs: [a], config: [{ id: 'a', name: 'y' }] }),
      ),
    ).to.equal('id_collision:deltas[0].node.data.config[0].id');
    expect(
      errorOf(
        applyPatch(emptyState('behavior'), {
          inputs: [
            { id: 'a', name: '' },
            { id: 'b', name: '' },
          ],
        }),
      ),
    ).to.equal(null);
  });
});
