import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { DeltaError } from '../../shared/errors/domainErrors';
import { parseDeltaBatch } from './deltas/parseDeltas';
import type { Delta } from './deltas/deltaTypes';
import { checkNewLineContent, recordsFirst } from './newLineContent';
import { mainView } from './view';

const parsed = (deltas: unknown[]): Delta[] =>
  parseDeltaBatch({ deltas }, { maxDeltas: 100_000, requireVersion: false }).deltas;

describe('checkNewLineContent: the order its records are written in', () => {
  // two boundaries whose children the file lists in turns (a, b, a, b, ...), each child
  // with an input and an output port, and a wire along each boundary's children
  const boundaries = [randomUUID(), randomUUID()];
  const children = Array.from({ length: 6 }, (_, i) => ({
    id: randomUUID(),
    parent: boundaries[i % 2],
    input: randomUUID(),
    output: randomUUID(),
    name: `step${i}`,
  }));
  const loose = randomUUID();
  const wires = children.slice(2).map((child, i) => ({
    id: randomUUID(),
    source: children[i].output,
    target: child.input,
  }));
  const deltas = parseDeltaBatch(
    {
      deltas: [
        ...boundaries.map((id, i) => ({
          type: 'add_node',
          node: { id, kind: 'boundary', data: { name: `b${i}` } },
        })),
        ...children.map((c) => ({
          type: 'add_node',
          node: {
            id: c.id,
            kind: 'behavior',
            parent_id: c.parent,
            data: {
              name: c.name,
              inputs: [{ id: c.input, name: 'in' }],
              outputs: [{ id: c.output, name: 'out' }],
            },
          },
        })),
        ...wires.map((w) => ({
          type: 'add_edge',
          edge: { id: w.id, source_handle: w.source, target_handle: w.target },
        })),
        // a wire with no source yet: it follows no port, and is written first
        {
          type: 'add_edge',
          edge: { id: loose, source_handle: null, target_handle: children[0].input },
        },
      ],
    },
    { maxDeltas: 100, requireVersion: false },
  ).deltas;
  const content = checkNewLineContent(mainView(randomUUID(), 1), deltas, 8, []);

  it("writes each parent's children side by side, in the file's order among them", () => {
    const ids = content.nodes.map((row) => row.id);
    const byParent = (parent: string) => children.filter((c) => c.parent === parent);
    expect(ids).to.deep.equal([
      ...boundaries,
      ...byParent(boundaries[0]).map((c) => c.id),
      ...byParent(boundaries[1]).map((c) => c.id),
    ]);
  });

  it('writes the ports in the order of their nodes, and each wire in that of its source', () => {
    const nodeAt = new Map(content.nodes.map((row, at) => [row.id, at]));
    const portNodes = content.ports.map((row) => nodeAt.get(row.props.node_id as string)!);
    expect(portNodes).to.deep.equal([...portNodes].sort((a, b) => a - b));
    expect(content.ports).to.have.length(12);
    const portAt = new Map(content.ports.map((row, at) => [row.id, at]));
    const sources = content.edges
      .slice(1)
      .map((row) => portAt.get(row.props.source_handle as string)!);
    expect(sources).to.deep.equal([...sources].sort((a, b) => a - b));
    expect(content.edges.map((row) => row.id)).to.have.members([loose, ...wires.map((w) => w.id)]);
    expect(content.edges[0].id).to.equal(loose);
  });
});

describe('recordsFirst: the records of a new line known before its check, the rest after it', () => {
  const view = mainView(randomUUID(), 0);
  const [system, store, worker, loose] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
  const [read, out, input] = [randomUUID(), randomUUID(), randomUUID()];
  const raw = [
    { type: 'add_node', node: { id: system, kind: 'boundary', data: { name: 'system' } } },
    {
      type: 'add_node',
      node: {
        id: store,
        kind: 'state',
        parent_id: system,
        data: { name: 'store', outputs: [{ id: read, name: 'read', type: 'str' }] },
      },
    },
    {
      type: 'add_node',
      node: {
        id: worker,
        kind: 'behavior',
        parent_id: system,
        data: {
          name: 'worker',
          source_decisions: [randomUUID()],
          inputs: [{ id: input, name: 'in', type: 'int' }],
          outputs: [{ id: out, name: 'out', type: 'int' }],
        },
      },
    },
    { type: 'add_node', node: { id: loose, kind: 'behavior', data: { name: 'loose' } } },
    // a wire of mismatched types (a kept finding), and a dangling one (another)
    { type: 'add_edge', edge: { id: randomUUID(), source_handle: read, target_handle: input } },
    { type: 'add_edge', edge: { id: randomUUID(), source_handle: out, target_handle: null } },
  ];
  const deltas = parsed(raw);
  const positions = [{ id: worker, x: 12, y: -3 }];

  it('answers the records, findings and counts checkNewLineContent answers', async () => {
    const whole = checkNewLineContent(view, deltas, 8, positions);
    const first = recordsFirst(view, deltas, 8, positions);
    if (!first) throw new Error('every node makes a record');
    const rest = await first.rest();
    expect({ ...first.rows, ...rest, usage: first.usage }).to.deep.equal(whole);
    expect(whole.findings, 'the content keeps findings').to.have.length.greaterThan(0);
    expect(whole.nodes.find((row) => row.id === worker)?.props).to.include({ x: 12, y: -3 });
  });

  /** The refusal `check` throws or rejects with, as its envelope. */
  async function refusalOf(check: () => unknown): Promise<unknown> {
    try {
      await check();
    } catch (error) {
      expect(error).to.be.instanceOf(DeltaError);
      return (error as DeltaError).envelope;
    }
    throw new Error('not refused');
  }

  it('rest refuses a content with the refusal checkNewLineContent throws', async () => {
    const refused = [
      // a sibling name taken by the last node
      [
        ...deltas,
        {
          type: 'add_node',
          node: { id: randomUUID(), kind: 'behavior', parent_id: system, data: { name: 'store' } },
        },
      ],
      // a node under a parent the content does not have
      [
        ...deltas,
        {
          type: 'add_node',
          node: {
            id: randomUUID(),
            kind: 'behavior',
            parent_id: randomUUID(),
            data: { name: 'x' },
          },
        },
      ],
      // an id used twice
      [
        ...deltas,
        { type: 'add_edge', edge: { id: loose, source_handle: out, target_handle: null } },
      ],
    ];
    for (const file of refused) {
      const all = parsed(file);
      const whole = await refusalOf(() => checkNewLineContent(view, all, 8, []));
      const first = recordsFirst(view, all, 8, []);
      if (!first) throw new Error('every node makes a record');
      expect(await refusalOf(() => first.rest())).to.deep.equal(whole);
    }
  });

  it('is null for a node whose data makes no record of its kind: nothing is written before the check refuses it', () => {
    const port = { id: randomUUID(), name: 'twice', type: 'int' };
    const twice = parsed([
      {
        type: 'add_node',
        node: {
          id: randomUUID(),
          kind: 'behavior',
          data: { name: 'w', inputs: [port, { ...port, id: randomUUID() }] },
        },
      },
    ]);
    expect(recordsFirst(view, twice, 8, [])).to.equal(null);
    expect(() => checkNewLineContent(view, twice, 8, [])).to.throw(DeltaError);
  });

  it('lets the event loop turn while it checks a large content', async () => {
    const many = parsed(
      Array.from({ length: 12_000 }, (_, i) => ({
        type: 'add_node',
        node: { id: randomUUID(), kind: 'behavior', data: { name: `n${i}` } },
      })),
    );
    const first = recordsFirst(view, many, 8, []);
    if (!first) throw new Error('every node makes a record');
    let turns = 0;
    let checking = true;
    const counting = (async () => {
      while (checking) {
        await nextTurn();
        turns += 1;
      }
    })();
    const rest = await first.rest();
    checking = false;
    await counting;
    // each node is kept an orphan_node finding: the check reached every one
    expect(rest.findings).to.have.length(12_000);
    expect(turns, 'turns of the event loop while the check ran').to.be.at.least(2);
  });
});
