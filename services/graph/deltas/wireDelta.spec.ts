import { expect } from 'chai';
import { parseDeltaBatch } from './parseDeltas';
import { recordedBytes, recordedText } from './wireDelta';

describe('recordedBytes (the size of a batch as recorded, without its text)', () => {
  const parsed = (deltas: unknown[]) =>
    parseDeltaBatch({ deltas }, { maxDeltas: 100, requireVersion: false }).deltas;
  const port = '33333333-3333-4333-8333-333333333333';
  const node = (id: string, name: string) => ({
    type: 'add_node',
    node: { id, kind: 'behavior', data: { name, inputs: [{ id: port, name: 'in' }] } },
  });

  for (const [what, deltas] of [
    ['no deltas', []],
    ['one delta', [node('11111111-1111-4111-8111-111111111111', 'a')]],
    [
      'several, with text beyond ASCII',
      [
        node('11111111-1111-4111-8111-111111111111', 'é ✓ \u{1F600}'),
        node('22222222-2222-4222-8222-222222222222', 'quote " backslash \\'),
        { type: 'delete_node', node_id: '11111111-1111-4111-8111-111111111111' },
      ],
    ],
  ] as const)
    it(`is the byte length of recordedText: ${what}`, () => {
      const batch = parsed([...deltas]);
      expect(recordedBytes(batch)).to.equal(Buffer.byteLength(recordedText(batch)));
    });
});
