/**
 * resolutionUnits: which units a merge preview's conflicts make and what each unit's
 * chosen state sends to rebaseBranch (ConflictResolution). A wrong resolution would
 * be refused by the service at best, or resolve the wrong side at worst.
 */
import { expect } from 'chai';
import { describe, it } from 'mocha';
import {
  Conflict,
  initialValue,
  probeStates,
  resolutionOf,
  Unit,
  unitsOf,
} from './resolutionUnits';

function conflict(
  reason: string,
  fields: string[],
  values: Record<string, unknown> = {},
): Conflict {
  return {
    reason,
    error: null,
    entity_id: `id-${reason}`,
    entity_kind: reason === 'rewired_on_both' ? 'port' : 'node',
    path: null,
    fields,
    branch_change: {
      action: 'modified',
      summary: 'branch did',
      values: values.branch ?? null,
    } as Conflict['branch_change'],
    main_change: {
      action: 'modified',
      summary: 'main did',
      values: values.main ?? null,
    } as Conflict['main_change'],
    delta_index: null,
    batch_version: null,
  };
}

const byReason = (units: Unit[], reason: string) =>
  units.filter((u) => u.conflict.reason === reason);

describe('resolutionUnits', () => {
  const units = unitsOf([
    conflict('modified_on_both', ['description', 'inputs', 'aliases'], {
      main: { description: 'm', inputs: ['p1'], aliases: ['a'] },
      branch: { description: 'b', inputs: ['p2'], aliases: ['b'] },
    }),
    conflict('reparent_conflict', ['parent_id'], {
      main: { parent_id: 'x' },
      branch: { parent_id: 'y' },
    }),
    conflict('name_collision', ['name'], {
      main: { id: 'other', name: 'n', parent_id: null },
      branch: { name: 'n' },
    }),
    conflict('rewired_on_both', ['source_handle']),
    conflict('deleted_on_main', []),
    conflict('deleted_on_branch_modified_on_main', ['description']),
    conflict('duplicate_name', ['after.name']),
  ]);

  it('makes a unit per field of the conflicts resolved by field, one per other conflict', () => {
    expect(units.map((u) => [u.conflict.reason, u.field, u.editor])).to.deep.equal([
      ['modified_on_both', 'description', 'text'],
      ['modified_on_both', 'inputs', 'json'],
      ['modified_on_both', 'aliases', 'json'],
      ['reparent_conflict', 'parent_id', 'parent'],
      ['name_collision', 'name', 'text'],
      ['rewired_on_both', 'source_handle', 'wire'],
      ['deleted_on_main', null, 'keepDrop'],
      ['deleted_on_branch_modified_on_main', null, 'keepDrop'],
      ['duplicate_name', null, null],
    ]);
    expect(byReason(units, 'name_collision')[0].sides).to.deep.equal([]);
    expect(byReason(units, 'reparent_conflict')[0].sides).to.deep.equal(['main', 'branch']);
  });

  it("starts an editor at the branch's value, a new name empty", () => {
    expect(initialValue(units[0])).to.equal('b');
    expect(initialValue(units[1])).to.equal('["p2"]');
    expect(initialValue(byReason(units, 'reparent_conflict')[0])).to.equal('y');
    expect(initialValue(byReason(units, 'name_collision')[0])).to.equal('');
  });

  it('sends the chosen side, the value parsed as its editor reads it, nothing when unchosen', () => {
    const [desc, inputs] = units;
    expect(resolutionOf(desc, { choice: null, value: 'x' })).to.equal(null);
    expect(resolutionOf(desc, { choice: 'main', value: 'x' })).to.deep.equal({
      resolution: {
        reason: 'modified_on_both',
        entity_kind: 'node',
        entity_id: 'id-modified_on_both',
        field: 'description',
        choice: 'main',
      },
    });
    expect(
      resolutionOf(inputs, { choice: 'value', value: '[{"id":"p3","name":"q","type":"int"}]' }),
    ).to.deep.include({
      resolution: {
        reason: 'modified_on_both',
        entity_kind: 'node',
        entity_id: 'id-modified_on_both',
        field: 'inputs',
        choice: 'value',
        value: [{ id: 'p3', name: 'q', type: 'int' }],
      },
    });
    expect(resolutionOf(inputs, { choice: 'value', value: '[oops' })).to.deep.equal({
      problem: 'the value is not valid JSON',
    });
    const parent = byReason(units, 'reparent_conflict')[0];
    expect(resolutionOf(parent, { choice: 'value', value: '' })).to.have.nested.property(
      'resolution.value',
      null,
    );
    const wire = byReason(units, 'rewired_on_both')[0];
    expect(resolutionOf(wire, { choice: 'value', value: '' })).to.deep.equal({
      problem: 'pick one',
    });
    const deleted = byReason(units, 'deleted_on_main')[0];
    const keep = resolutionOf(deleted, { choice: 'value', value: 'keep' });
    expect(keep).to.have.nested.property('resolution.value', 'keep');
    expect(keep).not.to.have.nested.property('resolution.field');
  });

  it('the probe resolves every unit it can by main side, and leaves a replay error alone', () => {
    const states = probeStates(units);
    expect(states.get(units[0].key)).to.deep.equal({ choice: 'main', value: '' });
    expect(states.get(byReason(units, 'name_collision')[0].key)).to.deep.equal({
      choice: 'value',
      value: 'n (rebased)',
    });
    expect(states.get(byReason(units, 'deleted_on_main')[0].key)?.value).to.equal('drop');
    expect(
      states.get(byReason(units, 'deleted_on_branch_modified_on_main')[0].key)?.value,
    ).to.equal('keep');
    expect(states.has(byReason(units, 'duplicate_name')[0].key)).to.equal(false);
  });
});
