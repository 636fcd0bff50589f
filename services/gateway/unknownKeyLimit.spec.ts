import { expect } from 'chai';
import { UnknownKeyLimit } from './unknownKeyLimit';

describe('UnknownKeyLimit', () => {
  it('marks an address spent after its misses, until the window ends, and no other address', () => {
    let now = 1_000_000;
    const limit = new UnknownKeyLimit(2, 100, () => now);
    expect(limit.spent('a')).to.equal(false);
    limit.recordMiss('a');
    limit.recordMiss('a');
    expect(limit.spent('a')).to.equal(true);
    expect(limit.spent('b')).to.equal(false);
    now += 60_000;
    expect(limit.spent('a')).to.equal(false);
  });

  it('keeps at most maxAddresses windows', () => {
    const limit = new UnknownKeyLimit(1, 2);
    limit.recordMiss('a');
    limit.recordMiss('b');
    limit.recordMiss('c');
    expect(limit.spent('a')).to.equal(false); // forgotten: the oldest went first
    expect(limit.spent('c')).to.equal(true);
  });
});
