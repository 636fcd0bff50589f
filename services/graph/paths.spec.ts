/** Unit tests of dotted paths and unaddressable reasons. */
import { expect } from 'chai';
import { addressNodes, chainProblem, renderPath } from './paths';

describe('scoped-read paths', () => {
  it('renders names from the top level joined by dots', () => {
    expect(renderPath(['app', 'core', 'worker'])).to.equal('app.core.worker');
    const out = addressNodes([
      { id: 'a', names: ['app'] },
      { id: 'b', names: ['app', 'core'] },
      { id: 'c', names: ['app', 'core', 'worker'] },
    ]);
    expect(out).to.deep.equal({
      paths: { a: 'app', b: 'app.core', c: 'app.core.worker' },
      unaddressable: {},
    });
  });

  it('gives empty_name when the node or any ancestor has an empty name', () => {
    const out = addressNodes([
      { id: 'self', names: ['app', ''] },
      { id: 'top', names: ['', 'x'] },
      { id: 'middle', names: ['app', '', 'x'] },
      { id: 'none', names: [] },
    ]);
    expect(out.paths).to.deep.equal({});
    expect(out.unaddressable).to.deep.equal({
      self: 'empty_name',
      top: 'empty_name',
      middle: 'empty_name',
      none: 'empty_name',
    });
  });

  it('gives reserved_separator when any name on the chain contains a dot', () => {
    const out = addressNodes([
      { id: 'self', names: ['app', 'v1.2'] },
      { id: 'above', names: ['a.b', 'c'] },
      { id: 'dot', names: ['.'] },
    ]);
    expect(out.unaddressable).to.deep.equal({
      self: 'reserved_separator',
      above: 'reserved_separator',
      dot: 'reserved_separator',
    });
  });

  it('checks empty_name before reserved_separator', () => {
    expect(chainProblem(['a.b', ''])).to.equal('empty_name');
    expect(chainProblem(['', 'a.b'])).to.equal('empty_name');
    expect(chainProblem(['a', 'b'])).to.equal(null);
  });

  it('marks every node of a rendered-path collision ambiguous, and only those', () => {
    const out = addressNodes([
      { id: 'one', names: ['app', 'worker'] },
      { id: 'two', names: ['app', 'worker'] },
      { id: 'three', names: ['app', 'worker'] },
      { id: 'other', names: ['app', 'reader'] },
    ]);
    expect(out.paths).to.deep.equal({ other: 'app.reader' });
    expect(out.unaddressable).to.deep.equal({
      one: 'ambiguous',
      two: 'ambiguous',
      three: 'ambiguous',
    });
  });

  it('does not count an unrenderable node towards ambiguity', () => {
    // 'a.b' cannot be rendered, so the nested a -> b keeps its path.
    const out = addressNodes([
      { id: 'dotted', names: ['a.b'] },
      { id: 'nested', names: ['a', 'b'] },
    ]);
    expect(out).to.deep.equal({
      paths: { nested: 'a.b' },
      unaddressable: { dotted: 'reserved_separator' },
    });
  });

  it('puts every node in exactly one of the two maps, once even when given twice', () => {
    const chains = [
      { id: 'a', names: ['x'] },
      { id: 'a', names: ['y'] },
      { id: 'b', names: [''] },
      { id: 'c', names: ['x', 'y.z'] },
      { id: 'd', names: ['q'] },
      { id: 'e', names: ['q'] },
    ];
    const out = addressNodes(chains);
    const ids = new Set(chains.map((c) => c.id));
    for (const id of ids) {
      expect(Number(id in out.paths) + Number(id in out.unaddressable), id).to.equal(1);
    }
    expect(Object.keys(out.paths).length + Object.keys(out.unaddressable).length).to.equal(
      ids.size,
    );
    expect(out.paths.a).to.equal('x');
  });

  it('keeps names that only look special: spaces and unicode are plain names', () => {
    const out = addressNodes([{ id: 'u', names: ['caf\u00e9', 'a b', ' '] }]);
    expect(out.paths).to.deep.equal({ u: 'caf\u00e9.a b. ' });
  });
});
