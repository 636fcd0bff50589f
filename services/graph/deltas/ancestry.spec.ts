import { expect } from 'chai';
import { CHAIN_STEPS } from '../store/deltaQueries';
import { firstChainSteps, LevelNode } from './ancestry';

/** A node as the levels read it: `id` under `parent` (null at the top). */
const node = (id: string, parent: string | null, kind = 'boundary'): LevelNode => ({
  id,
  kind,
  parent_id: parent,
});

describe('firstChainSteps', () => {
  // a chain top <- a <- b <- c <- d <- e, and a second parent `s` beside `d` under `c`
  const ancestors = [
    node('top', null),
    node('a', 'top'),
    node('b', 'a'),
    node('c', 'b'),
    node('d', 'c'),
  ];

  it('walks CHAIN_STEPS ancestors up, nearest first, and says where the walk goes on', () => {
    expect(CHAIN_STEPS).to.equal(3);
    const rows = firstChainSteps([node('e', 'd'), node('s', 'c')], ancestors);
    expect(rows).to.deep.equal([
      { id: 'e', chain: ['d', 'c', 'b'], next: 'a' },
      { id: 's', chain: ['c', 'b', 'a'], next: 'top' },
    ]);
  });

  it('ends a chain at the top, with nothing to go on with', () => {
    const rows = firstChainSteps([node('b', 'a'), node('top', null)], ancestors);
    expect(rows).to.deep.equal([
      { id: 'b', chain: ['a', 'top'], next: null },
      { id: 'top', chain: [], next: null },
    ]);
  });

  it('ends a chain where an ancestor was not read (the view does not have it)', () => {
    const rows = firstChainSteps([node('e', 'd')], [node('d', 'gone')]);
    expect(rows).to.deep.equal([{ id: 'e', chain: ['d'], next: null }]);
  });

  it('walks through a parent that is also an ancestor of another parent', () => {
    // levels above `c` and `d`: {b, c}, then {a, b}, then {top, a}
    const levels = [node('b', 'a'), node('c', 'b'), node('a', 'top'), node('top', null)];
    const rows = firstChainSteps([node('c', 'b'), node('d', 'c')], levels);
    expect(rows).to.deep.equal([
      { id: 'c', chain: ['b', 'a', 'top'], next: null },
      { id: 'd', chain: ['c', 'b', 'a'], next: 'top' },
    ]);
  });
});
