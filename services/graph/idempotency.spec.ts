/** Unit tests of the idempotency fingerprint and key rules. */
import { expect } from 'chai';
import { fingerprint, isValidIdempotencyKey } from './idempotency';

describe('idempotency helpers', () => {
  it('fingerprints bodies independently of key order', () => {
    expect(fingerprint({ a: 1, b: [1, { c: 2, d: 3 }] })).to.equal(
      fingerprint({ b: [1, { d: 3, c: 2 }], a: 1 }),
    );
    expect(fingerprint({ a: 1 })).to.not.equal(fingerprint({ a: 2 }));
    expect(fingerprint([1, 2])).to.not.equal(fingerprint([2, 1]));
  });

  it('accepts 1 to 255 printable ASCII characters', () => {
    expect(isValidIdempotencyKey('k')).to.equal(true);
    expect(isValidIdempotencyKey('k'.repeat(255))).to.equal(true);
    expect(isValidIdempotencyKey('')).to.equal(false);
    expect(isValidIdempotencyKey('k'.repeat(256))).to.equal(false);
    expect(isValidIdempotencyKey('caf\u00e9')).to.equal(false);
    expect(isValidIdempotencyKey('a\tb')).to.equal(false);
  });
});
