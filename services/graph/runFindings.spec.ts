import { expect } from 'chai';
import { RunFindingInput, runFindingChanges } from './runFindings';

/** A run's findings input: nothing created, nothing named, findings kept. */
function input(over: Partial<RunFindingInput>): RunFindingInput {
  return {
    kept: true,
    nodes: [],
    ports: new Map(),
    named: new Map(),
    parentOrphans: new Map(),
    wires: [],
    ...over,
  };
}

const codes = (changes: ReturnType<typeof runFindingChanges>) =>
  changes.opened.map((f) => `${f.code}:${f.locator}`).sort();

describe('runFindingChanges (the findings of a run of additions)', () => {
  it('opens unsatisfied_input on a new input no wire of the run feeds, not on an output or a fed input', () => {
    const changes = runFindingChanges(
      input({
        ports: new Map([
          ['in1', { channel: 'inputs', name: 'a', type: 'int' }],
          ['in2', { channel: 'inputs', name: 'b', type: 'int' }],
          ['out', { channel: 'outputs', name: 'c', type: 'int' }],
        ]),
        wires: [{ id: 'w', source: 'out', target: 'in2' }],
      }),
    );
    expect(codes(changes)).to.deep.equal(['unsatisfied_input:in1']);
    expect(changes.opened[0].message).to.equal('input port "a" has no incoming wire');
    expect(changes.closed).to.deep.equal([]);
  });

  it('closes the kept unsatisfied_input of an existing input a wire of the run now feeds', () => {
    const changes = runFindingChanges(
      input({
        named: new Map([
          ['old', { channel: 'inputs', name: '', type: 'int', unsatisfiedKept: true }],
          ['fed', { channel: 'inputs', name: '', type: 'int', unsatisfiedKept: false }],
          ['src', { channel: 'outputs', name: '', type: 'int', unsatisfiedKept: false }],
        ]),
        wires: [
          { id: 'w1', source: 'src', target: 'old' },
          { id: 'w2', source: 'src', target: 'fed' },
        ],
      }),
    );
    expect(changes.opened).to.deep.equal([]);
    expect(changes.closed).to.deep.equal(['unsatisfied_input:old']);
  });

  it('opens dangling_wire for a handle naming no port, type_mismatch for ends of different types', () => {
    const changes = runFindingChanges(
      input({
        ports: new Map([['in', { channel: 'inputs', name: 'i', type: 'str' }]]),
        named: new Map([
          ['src', { channel: 'outputs', name: '', type: 'int', unsatisfiedKept: false }],
        ]),
        wires: [
          { id: 'dangles', source: 'src', target: 'nowhere' },
          { id: 'mismatch', source: 'src', target: 'in' },
          { id: 'open-end', source: null, target: null },
        ],
      }),
    );
    expect(codes(changes)).to.deep.equal(['dangling_wire:dangles', 'type_mismatch:mismatch']);
    const mismatch = changes.opened.find((f) => f.code === 'type_mismatch');
    expect(mismatch?.message).to.equal('wire joins type "int" to "str"');
  });

  it('decides orphans through the run and the kept orphan_node of a parent it did not create', () => {
    const changes = runFindingChanges(
      input({
        nodes: [
          { id: 'traced', parentId: null, traced: true, name: 't' },
          { id: 'under-traced', parentId: 'traced', traced: false, name: 'u' },
          { id: 'under-orphan', parentId: 'orphan-parent', traced: false, name: 'o' },
          { id: 'under-covered', parentId: 'covered-parent', traced: false, name: 'c' },
          { id: 'top', parentId: null, traced: false, name: 'top' },
        ],
        parentOrphans: new Map([
          ['orphan-parent', true],
          ['covered-parent', false],
        ]),
      }),
    );
    expect(codes(changes)).to.deep.equal([
      'orphan_node:top',
      'orphan_node:under-orphan',
      'traced:traced',
    ]);
  });
});
