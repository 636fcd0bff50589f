import { expect } from 'chai';
import { RateLimitedError } from '../../shared/errors/domainErrors';
import { UnknownKeyLimit } from './unknownKeyLimit';

describe('UnknownKeyLimit', () => {
  it('refuses an address after its misses, until the window ends, and no other address', () => {
    let now = 1_000_000;
    const limit = new UnknownKeyLimit(2, 100, () => now);
    limit.refuseIfSpent('a');
    limit.recordMiss('a');
    limit.recordMiss('a');
    expect(() => limit.refuseIfSpent('a')).to.throw(RateLimitedError);
    limit.refuseIfSpent('b');
    now += 60_000;
    limit.refuseIfSpent('a');
  });

  it('keeps at most maxAddresses windows', () => {
    const limit = new UnknownKeyLimit(1, 2);
    limit.recordMiss('a');
    limit.recordMiss('b');
    limit.recordMiss('c');
    limit.refuseIfSpent('a'); // forgotten: the oldest went first
    expect(() => limit.refuseIfSpent('c')).to.throw(RateLimitedError);
  });
});
