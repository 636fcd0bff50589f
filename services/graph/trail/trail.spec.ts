import { expect } from 'chai';
import { fitting, pageBytes } from './trail';

describe('fitting (a page of the change trail within its byte budget)', () => {
  it('takes changes while they fit, and always the first one', () => {
    expect(fitting([10, 10, 10], 25)).to.equal(2);
    expect(fitting([10, 10, 10], 30)).to.equal(3);
    expect(fitting([100, 1], 25)).to.equal(1);
    expect(fitting([], 25)).to.equal(0);
  });

  it('budgets four batches of the largest size', () => {
    expect(pageBytes(2 * 1024 * 1024)).to.equal(8 * 1024 * 1024);
  });
});
