import { expect } from 'chai';
import { nodeFindings, unsatisfiedInput, wireFinding } from './findingRecords';
import {
  DANGLING_WIRE,
  ORPHAN_NODE,
  SUBJECT_OF_CODE,
  TRACED,
  TYPE_MISMATCH,
  UNSATISFIED_INPUT,
} from './findingRules';
import { runFindingChanges } from './runFindings';

describe('findingRules (each finding code defined once)', () => {
  it('gives every code a subject, so a refresh removes only the records of what it reached', () => {
    expect(Object.keys(SUBJECT_OF_CODE).sort()).to.deep.equal(
      [DANGLING_WIRE, ORPHAN_NODE, TRACED, TYPE_MISMATCH, UNSATISFIED_INPUT].sort(),
    );
  });

  it('builds the same finding whether a write recomputes it or a run of additions derives it', () => {
    const ports = new Map([['in', { channel: 'inputs', name: 'feed', type: 'int' }]]);
    const derived = runFindingChanges({
      kept: true,
      nodes: [{ id: 'n', parentId: null, traced: false, name: 'worker' }],
      ports,
      named: new Map([
        ['out', { channel: 'outputs', name: '', type: 'text', unsatisfiedKept: false }],
      ]),
      parentOrphans: new Map(),
      wires: [
        { id: 'w1', source: 'gone', target: null },
        { id: 'w2', source: 'out', target: 'x' },
      ],
    }).opened;
    const recomputed = [
      unsatisfiedInput({ locator: 'in', name: 'feed' }),
      wireFinding({ locator: 'w1', dangling: true, sourceType: '', targetType: '' }),
      wireFinding({ locator: 'w2', dangling: true, sourceType: 'text', targetType: '' }),
      ...nodeFindings([
        { id: 'n', parentId: null, traced: false, name: 'worker', parentOrphan: false },
      ]),
    ];
    expect(derived).to.deep.equal(recomputed);
    expect(derived.map((f) => f.code)).to.deep.equal([
      UNSATISFIED_INPUT,
      DANGLING_WIRE,
      DANGLING_WIRE,
      ORPHAN_NODE,
    ]);
    expect(derived[0].message).to.equal('input port "feed" has no incoming wire');
  });
});
