import { expect } from 'chai';
import { DeltaError } from '../../../shared/errors/domainErrors';
import { CHANNELS, NODE_KINDS } from '../../../shared/model/nodeModel';
import { checkAddedWire } from './addRunChecker';
import type { AddEdge } from './deltaTypes';
import {
  edgeKindsAllowed,
  firstUsedId,
  WireEnd,
  wireRefusal,
  WIRE_END_CHANNELS,
} from './invariants';
import { checkWires, NewPort } from './wiresOnNewPorts';

/** The error a check threw (its code and field), or null when it passed. */
function refusalOf(check: () => void): { error: string; field: string | null } | null {
  try {
    check();
    return null;
  } catch (e) {
    if (!(e instanceof DeltaError)) throw e;
    return { error: e.envelope.error, field: e.envelope.field };
  }
}

/** Every end a wire can have: no port yet, or a port of each channel on a node of each kind. */
const ENDS: (WireEnd | undefined)[] = [
  undefined,
  ...CHANNELS.flatMap((channel) => NODE_KINDS.map((kind) => ({ channel, kind }))),
];
const label = (end: WireEnd | undefined) => (end ? `${end.kind} ${end.channel}` : 'no port');

const edge = (index: number): AddEdge => ({
  type: 'add_edge',
  index,
  edge: { id: 'w', source_handle: 'ps', target_handle: 'pt' },
});

describe('the wire invariants (invariants.ts wireRefusal), asked by both ways of applying deltas', () => {
  it('the table of cases covers every channel and node kind at each end', () => {
    expect(ENDS).to.have.length(1 + CHANNELS.length * NODE_KINDS.length);
  });

  it('wireRefusal answers by the rule it states: an output to an input, kinds edgeKindsAllowed', () => {
    for (const source of ENDS)
      for (const target of ENDS) {
        const ends = source && target;
        const channelsOk =
          (!source || source.channel === WIRE_END_CHANNELS.source) &&
          (!target || target.channel === WIRE_END_CHANNELS.target);
        const kindsOk = !ends || edgeKindsAllowed(source.kind!, target.kind!);
        expect(
          wireRefusal(source, target) === null,
          `${label(source)} -> ${label(target)}`,
        ).to.equal(channelsOk && kindsOk);
      }
  });

  it('add_edge (the add-run path) and a wire completed by a new port (wiresOnNewPorts) refuse the same wires with the same code', () => {
    let refused = 0;
    for (const source of ENDS)
      for (const target of ENDS) {
        const expected = wireRefusal(source, target);
        const added = refusalOf(() => checkAddedWire(edge(0), source, target));
        // the same wire, its source port created later by delta 1 and its target by delta 2
        const ports: NewPort[] = [
          { id: 'ps', delta: edge(1), field: 'node.data.outputs' },
          { id: 'pt', delta: edge(2), field: 'node.data.inputs' },
        ];
        const completed = refusalOf(() =>
          checkWires(
            [
              {
                id: 'w',
                source: 'ps',
                target: 'pt',
                sourceChannel: source?.channel ?? null,
                sourceKind: source?.kind ?? null,
                targetChannel: target?.channel ?? null,
                targetKind: target?.kind ?? null,
              },
            ],
            ports,
          ),
        );
        const what = `${label(source)} -> ${label(target)}`;
        expect(added?.error ?? null, what).to.equal(expected?.error ?? null);
        expect(completed?.error ?? null, what).to.equal(expected?.error ?? null);
        if (expected?.error === 'invalid_endpoint') {
          // each blames the end that breaks it: add_edge's handle, or the delta of its port
          expect(added?.field, what).to.equal(`deltas[0].edge.${expected.end}_handle`);
          const blamed = expected.end === 'source' ? ports[0] : ports[1];
          expect(completed?.field, what).to.equal(`deltas[${blamed.delta.index}].${blamed.field}`);
        }
        if (expected) refused += 1;
      }
    expect(refused).to.be.greaterThan(0);
  });
});

describe('id_collision (invariants.ts firstUsedId)', () => {
  it('names the first id in the order the delta names them', () => {
    const used = new Set(['b', 'c']);
    expect(firstUsedId(['a', 'c', 'b'], (id) => used.has(id))).to.equal('c');
    expect(firstUsedId(['a'], (id) => used.has(id))).to.equal(undefined);
  });
});
