import { expect } from 'chai';
import { JsonStreamError, readObjectStream } from './jsonObjectStream';

/** The text cut into pieces of `size` characters, as a stream would hand it over. */
async function* piecesOf(text: string, size: number): AsyncGenerator<string> {
  for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size);
}

/** Reads `text` in pieces of `size`: the streamed arrays rebuilt from their elements, with the rest. */
async function read(text: string, size: number, streamed = ['nodes', 'edges']) {
  const arrays: Record<string, unknown[]> = {};
  const rest = await readObjectStream(piecesOf(text, size), {
    streamed: new Set(streamed),
    onElement: (key, element, index) => {
      arrays[key] ??= [];
      expect(index, `${key}'s indexes count up from 0`).to.equal(arrays[key].length);
      arrays[key].push(element);
    },
  });
  return { ...rest, ...arrays };
}

const documents: unknown[] = [
  { schema_version: 6, project_name: 'p', nodes: [], edges: [] },
  {
    project_name: 'quotes " and \\ and \u00e9 and \ud83d\ude00 and }{][,:',
    nodes: [
      { id: 'a', data: { name: 'x', inputs: [{ id: 'p', type: null }], deep: [[[], {}], 1] } },
      { id: 'b', data: { n: -1.5e3, t: true, f: false, z: null } },
    ],
    schema_version: 6,
    edges: [{ id: 'e', source_handle: 'p', target_handle: null }],
    other: { nested: ['kept', 'whole'] },
  },
  { nodes: [1, 'two', null, [3], { four: 4 }, true], edges: [] },
];

describe('readObjectStream (a top-level object read from a stream of text)', () => {
  for (const [n, doc] of documents.entries())
    for (const size of [1, 2, 3, 7, 64, 1 << 20])
      it(`document ${n} in pieces of ${size} characters reads as JSON.parse reads it`, async () => {
        const text = JSON.stringify(doc, null, n === 1 ? 2 : undefined);
        const got = await read(text, size);
        const expected = JSON.parse(text) as Record<string, unknown>;
        expect(got).to.deep.equal(expected);
      });

  it('answers a streamed key whose value is not an array with the other values', async () => {
    expect(await read('{"nodes": 5, "edges": "x"}', 3)).to.deep.equal({ nodes: 5, edges: 'x' });
  });

  it('hands over elements of the streamed arrays only, in order, as they arrive', async () => {
    const seen: string[] = [];
    await readObjectStream(piecesOf('{"a":[1,2],"nodes":[3,{"b":[4]}],"edges":[5]}', 4), {
      streamed: new Set(['nodes', 'edges']),
      onElement: (key, element) => seen.push(`${key}:${JSON.stringify(element)}`),
    });
    expect(seen).to.deep.equal(['nodes:3', 'nodes:{"b":[4]}', 'edges:5']);
  });

  for (const [text, why] of [
    ['[1, 2]', 'the top level must be an object'],
    ['{"nodes": [1,]}', 'not JSON'],
    ['{"a": 1,}', 'a key was expected'],
    ['{"a" 1}', 'a colon was expected'],
    ['{"nodes": [1 2]}', 'a comma or a closing bracket was expected'],
    ['{"a": 1 "b": 2}', 'a comma or a closing brace was expected'],
    ['{"a": tru}', 'not JSON'],
    ['{"nodes": [{"a": 1}', 'the text ends before the object does'],
    ['{"a": 1} x', 'nothing may follow the object'],
    ['', 'the text ends before the object does'],
  ] as const)
    it(`refuses ${JSON.stringify(text)}: ${why}`, async () => {
      for (const size of [1, 5, 100]) {
        const refused = await read(text, size).then(
          () => null,
          (error: unknown) => error,
        );
        expect(refused, `in pieces of ${size}`).to.be.instanceOf(JsonStreamError);
        expect((refused as Error).message).to.include(why);
      }
    });
});
