import { expect } from 'chai';
import { VersionNotFoundError } from '../../shared/errors/domainErrors';
import { graphVersion, requireReadable, resolveView } from './viewResolver';

const main = { id: 'm', main_id: 'm', version: 7, base_main_version: 0 };
const branch = { id: 'b', main_id: 'm', version: 3, base_main_version: 5, history_floor: 1 };

function notFound(run: () => unknown): VersionNotFoundError {
  try {
    run();
  } catch (error) {
    expect(error).to.be.instanceOf(VersionNotFoundError);
    return error as VersionNotFoundError;
  }
  throw new Error('expected VersionNotFoundError');
}

describe('resolveView', () => {
  it('reads the head without a version: main on its own line, a branch over main at its base', () => {
    expect(resolveView(main)).to.deep.equal({ line: 'm', ver: 7, main: 'm', base: 7 });
    expect(resolveView(branch, null)).to.deep.equal({ line: 'b', ver: 3, main: 'm', base: 5 });
  });

  it('reads a version from the history floor up to the head', () => {
    expect(resolveView(main, 0)).to.deep.equal({ line: 'm', ver: 0, main: 'm', base: 0 });
    expect(resolveView(branch, 1)).to.deep.equal({ line: 'b', ver: 1, main: 'm', base: 5 });
    expect(resolveView(branch, 3).ver).to.equal(3);
  });

  it('refuses a version above the head, below the floor, negative or not an integer', () => {
    for (const version of [4, 0, -1, 1.5, Number.NaN]) {
      const error = notFound(() => resolveView(branch, version));
      expect(error.extra).to.deep.equal({ oldest: 1, newest: 3 });
      expect(error.code).to.equal('version_not_found');
    }
    expect(notFound(() => resolveView(main, 8)).extra).to.deep.equal({ oldest: 0, newest: 7 });
  });
});

describe('requireReadable', () => {
  it('passes the head and every kept version, and refuses the rest as resolveView does', () => {
    for (const version of [undefined, null, 1, 3]) requireReadable(branch, version);
    expect(notFound(() => requireReadable(branch, 0)).extra).to.deep.equal({
      oldest: 1,
      newest: 3,
    });
    expect(notFound(() => requireReadable(branch, 4)).code).to.equal('version_not_found');
  });
});

describe('graphVersion', () => {
  it('reads the query parameter as a number, absent when not sent', () => {
    expect(graphVersion({ query: {} })).to.equal(undefined);
    expect(graphVersion({ query: { version: '2' } })).to.equal(2);
    expect(graphVersion({ query: { version: 0 } })).to.equal(0);
  });
});
