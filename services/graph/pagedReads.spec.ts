/** Unit tests of the parents-first order of the nodes that may hold children. */
import { expect } from 'chai';
import { NodeRef, parentsFirst } from './pagedReads';

const ref = (id: string, parent_id: string | null = null): NodeRef => ({ id, parent_id });

/** Whether every parent of `refs` comes before its children in `order`. */
function parentsBeforeChildren(refs: NodeRef[], order: string[]): boolean {
  return refs.every(
    (r) => r.parent_id === null || order.indexOf(r.parent_id) < order.indexOf(r.id),
  );
}

describe('parentsFirst (pagedReads.ts)', () => {
  it('orders by depth, then by id among a depth', () => {
    // ids chosen so that id order alone would put children first
    const refs = [ref('a3', 'c1'), ref('c1', 'z0'), ref('b2', 'z0'), ref('z0'), ref('y0')];
    const order = parentsFirst(refs);
    expect(order).to.deep.equal(['y0', 'z0', 'b2', 'c1', 'a3']);
    expect(parentsBeforeChildren(refs, order)).to.equal(true);
  });

  it('gives the same order whatever the order the refs were read in', () => {
    const refs = [ref('r'), ref('m', 'r'), ref('k', 'm'), ref('q', 'k'), ref('b', 'r')];
    const once = parentsFirst(refs);
    expect(parentsFirst([...refs].reverse())).to.deep.equal(once);
    expect(parentsFirst([refs[3], refs[0], refs[4], refs[2], refs[1]])).to.deep.equal(once);
  });

  it('orders ids by code unit, as the store orders them', () => {
    expect(parentsFirst([ref('b'), ref('B'), ref('a-1'), ref('a0')])).to.deep.equal([
      'B',
      'a-1',
      'a0',
      'b',
    ]);
  });

  it('takes a node whose parent is not among them as a root, and ends on a cycle', () => {
    expect(parentsFirst([ref('x', 'gone'), ref('w', 'x')])).to.deep.equal(['x', 'w']);
    const order = parentsFirst([ref('p', 'q'), ref('q', 'p'), ref('r')]);
    expect([...order].sort()).to.deep.equal(['p', 'q', 'r']);
  });

  it('answers nothing for no refs', () => {
    expect(parentsFirst([])).to.deep.equal([]);
  });
});
