/** The 422 of a broken structural invariant (invariants.test.ts, wireInvariants.test.ts). */
import { expect } from 'chai';

export function expectInvariantError(res: any, error: string, hint: string | null = null) {
  expect(res.status, JSON.stringify(res.body)).to.equal(422);
  expect(res.body.detail.error).to.equal(error);
  expect(res.body.detail.recovery_hint).to.equal(hint);
  expect(res.body.detail.field).to.be.a('string');
}
