import { expect } from 'chai';
import { characterCount } from './characters';

describe('characterCount (length limits count characters, not UTF-16 units)', () => {
  it('counts code points, as JSON Schema maxLength does', () => {
    expect(characterCount('')).to.equal(0);
    expect(characterCount('abc')).to.equal(3);
    expect(characterCount('é')).to.equal(1);
    expect(characterCount('😀'.repeat(150))).to.equal(150);
    expect(characterCount('a😀b')).to.equal(3);
  });

  it('counts a lone surrogate as one character', () => {
    expect(characterCount('\uD800x')).to.equal(2);
  });
});
