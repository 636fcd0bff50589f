import { expect } from 'chai';
import { capFindings, Finding, orphansOf } from './findings';

const row = (id: string, parentId: string | null, traced = false) => ({
  id,
  parentId,
  traced,
  name: id,
});

describe('orphansOf (orphan_node in one pass)', () => {
  it('a traced node covers its whole subtree; untraced chains are orphans', () => {
    const rows = [
      row('a', null, true),
      row('a1', 'a'),
      row('a2', 'a1'),
      row('b', null),
      row('b1', 'b'),
      row('b2', 'b1', true),
      row('b3', 'b2'),
    ];
    expect(orphansOf(rows).map((r) => r.id)).to.deep.equal(['b', 'b1']);
  });

  it('decides a chain of 100 000 nodes in linear time (each node settled once)', () => {
    const n = 100_000;
    const rows = Array.from({ length: n }, (_, i) => row(`n${i}`, i === 0 ? null : `n${i - 1}`));
    // listed deepest first: the worst order for a walk up from every node
    rows.reverse();
    expect(orphansOf(rows)).to.have.length(n);
    rows[n - 1].traced = true; // the root
    expect(orphansOf(rows)).to.have.length(0);
  });
});

describe('capFindings', () => {
  it('keeps the first findings and says whether some were left out', () => {
    const f = (locator: string): Finding => ({
      code: 'orphan_node',
      locator,
      severity: 'warning',
      message: '',
    });
    expect(capFindings([f('a'), f('b')], 2)).to.deep.equal({
      findings: [f('a'), f('b')],
      truncated: false,
    });
    expect(capFindings([f('a'), f('b'), f('c')], 2)).to.deep.equal({
      findings: [f('a'), f('b')],
      truncated: true,
    });
  });
});
