import { expect } from 'chai';
import { exceedsJsonDepth } from './jsonDepth';

const bytes = (text: string) => Buffer.from(text, 'utf8');

describe('exceedsJsonDepth', () => {
  it('accepts a body exactly at the bound and refuses one level more', () => {
    expect(exceedsJsonDepth(bytes('[[[1]]]'), 3)).to.equal(false);
    expect(exceedsJsonDepth(bytes('[[[[1]]]]'), 3)).to.equal(true);
    expect(exceedsJsonDepth(bytes('{"a":{"b":{"c":{}}}}'), 3)).to.equal(true);
  });

  it('counts siblings once, not their sum', () => {
    expect(exceedsJsonDepth(bytes('[[1],[2],[3],[4]]'), 2)).to.equal(false);
    expect(exceedsJsonDepth(bytes('[[1],[2],{"a":[4]}]'), 3)).to.equal(false);
    expect(exceedsJsonDepth(bytes('[[1],[2],{"a":[4]}]'), 2)).to.equal(true);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(exceedsJsonDepth(bytes('{"a":"[[[[[[{{{{"}'), 1)).to.equal(false);
    expect(exceedsJsonDepth(bytes('{"a":"\\"[[[[[[","b":1}'), 1)).to.equal(false);
    expect(exceedsJsonDepth(bytes('["\\\\",[[1]]]'), 2)).to.equal(true);
  });

  it('finds a 100k-deep body without recursing', () => {
    expect(exceedsJsonDepth(bytes('['.repeat(100_000) + ']'.repeat(100_000)))).to.equal(true);
  });
});
