import { expect } from 'chai';
import { PortEnd, wiresAfterRun } from './wiresOnNewPorts';

describe('wiresAfterRun', () => {
  const created = new Map<string, PortEnd>([
    ['in-new', { channel: 'inputs', kind: 'state' }],
    ['out-new', { channel: 'outputs', kind: 'behavior' }],
  ]);
  const existing = (handle: string): PortEnd | undefined =>
    handle === 'out-old' ? { channel: 'outputs', kind: 'io' } : undefined;

  it('gives each wire on a new port both ends as the run leaves them, ordered by id', () => {
    const rows = wiresAfterRun(
      [
        // committed before its target port existed: its source was there already
        {
          id: 'w2',
          source: 'out-old',
          target: 'in-new',
          sourceChannel: 'outputs',
          sourceKind: 'behavior',
          targetChannel: null,
          targetKind: null,
        },
      ],
      [
        { id: 'w1', source: 'out-new', target: 'nowhere' },
        // touches no port the run creates: not the run's to check again
        { id: 'w0', source: 'out-old', target: 'nowhere' },
      ],
      created,
      existing,
    );
    expect(rows).to.deep.equal([
      {
        id: 'w1',
        source: 'out-new',
        target: 'nowhere',
        sourceChannel: 'outputs',
        sourceKind: 'behavior',
        targetChannel: null,
        targetKind: null,
      },
      {
        id: 'w2',
        source: 'out-old',
        target: 'in-new',
        sourceChannel: 'outputs',
        sourceKind: 'behavior',
        targetChannel: 'inputs',
        targetKind: 'state',
      },
    ]);
  });
});
