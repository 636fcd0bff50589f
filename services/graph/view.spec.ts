import { expect } from 'chai';
import { branchView, mainView, viewBefore, writeViewOf } from './view';

describe('write views (view.ts)', () => {
  it('writes the next version of a line, and viewBefore gives back the view it is written over', () => {
    const main = mainView('m', 7);
    const branch = branchView({ id: 'b', base_main_version: 5 }, 'm', 3);
    expect(writeViewOf(main)).to.deep.equal({ line: 'm', ver: 8, main: 'm', base: 8 });
    expect(writeViewOf(branch)).to.deep.equal({ line: 'b', ver: 4, main: 'm', base: 5 });
    // on main's own line the base follows the version; a branch keeps its base
    expect(viewBefore(writeViewOf(main))).to.deep.equal(main);
    expect(viewBefore(writeViewOf(branch))).to.deep.equal(branch);
  });
});
