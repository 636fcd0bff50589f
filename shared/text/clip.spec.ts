import { expect } from 'chai';
import { clip, quote } from './clip';

describe('clip', () => {
  it('keeps short text and cuts long text to the bound with an ellipsis', () => {
    expect(clip('abc')).to.equal('abc');
    const long = 'x'.repeat(4 * 1024 * 1024);
    expect(clip(long, 10)).to.equal(`${'x'.repeat(10)}…`);
    expect(quote(long).length).to.be.below(70);
  });

  it('never splits a surrogate pair', () => {
    const text = `${'a'.repeat(9)}😀${'b'.repeat(20)}`;
    expect(clip(text, 10)).to.equal(`${'a'.repeat(9)}…`);
  });
});
