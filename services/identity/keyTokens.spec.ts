import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { hashToken, looksLikeToken, mintToken } from './keyTokens';

describe('keyTokens', () => {
  it('hashes a token as the hex SHA-256 of its UTF-8 bytes, as stored for every key', () => {
    expect(hashToken('abc')).to.equal(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
    const token = mintToken();
    expect(looksLikeToken(token)).to.equal(true);
    expect(hashToken(token)).to.equal(createHash('sha256').update(token, 'utf8').digest('hex'));
    expect(hashToken('gds_é')).to.equal(createHash('sha256').update('gds_é', 'utf8').digest('hex'));
  });
});
