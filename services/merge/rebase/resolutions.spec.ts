/** Matching a rebase's resolutions to its conflicts (resolutions.ts). */
import { expect } from 'chai';
import type { MergeConflict } from '../conflicts/conflictList';
import { matchResolutions, Resolution } from './resolutions';

function conflict(reason: string, id: string, fields: string[]): MergeConflict {
  return {
    reason,
    error: null,
    entity_id: id,
    entity_kind: 'node',
    path: null,
    fields,
    branch_change: null,
    main_change: null,
    delta_index: null,
    batch_version: null,
  };
}

const resolution = (
  c: MergeConflict,
  field: string | null,
  choice: Resolution['choice'] = 'main',
) =>
  ({
    reason: c.reason,
    entity_kind: 'node',
    entity_id: c.entity_id ?? '',
    field,
    choice,
  }) as Resolution;

describe('rebase resolutions', () => {
  const both = conflict('modified_on_both', 'n', ['description', 'name']);
  const gone = conflict('deleted_on_main', 'm', []);

  it('a conflict of several fields is resolved field by field; one field left keeps it listed', () => {
    const { chosen, left } = matchResolutions(
      [both, gone],
      [resolution(both, 'name'), resolution(gone, null)],
    );
    expect(chosen.size).to.equal(2);
    expect(left).to.deep.equal([both]);
    const all = matchResolutions(
      [both],
      [resolution(both, 'name'), resolution(both, 'description')],
    );
    expect(all.left).to.deep.equal([]);
  });

  it('refuses a resolution naming no conflict, a second one of a conflict, and a choice that does not apply', () => {
    const codeOf = (rs: Resolution[], conflicts: MergeConflict[] = [both]) => {
      try {
        matchResolutions(conflicts, rs);
        return null;
      } catch (error) {
        return {
          code: (error as { code: string }).code,
          extra: (error as { extra: unknown }).extra,
        };
      }
    };
    expect(codeOf([resolution(both, 'status')])).to.deep.equal({
      code: 'unknown_conflict',
      extra: { resolution_index: 0, field: 'resolutions[0]' },
    });
    expect(codeOf([resolution(both, 'name'), resolution(both, 'name', 'branch')])?.code).to.equal(
      'invalid_resolution',
    );
    const collision = conflict('name_collision', 'x', ['name']);
    expect(codeOf([resolution(collision, 'name', 'branch')], [collision])).to.deep.equal({
      code: 'invalid_resolution',
      extra: { resolution_index: 0, field: 'resolutions[0].choice' },
    });
    const replayError = { ...conflict('duplicate_name', 'y', []), error: 'duplicate_name' };
    expect(codeOf([resolution(replayError, null)], [replayError])?.code).to.equal(
      'invalid_resolution',
    );
  });
});
