import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { parseDeltaBatch } from './deltas/parseDeltas';
import { checkNewLineContent } from './newLineContent';
import { mainView } from './view';

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
