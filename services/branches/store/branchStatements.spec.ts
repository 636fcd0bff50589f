import { expect } from 'chai';
import { compactCypher } from '../../../shared/neo4j/compactCypher';
import {
  BRANCH_ACCESS,
  findBranchWithAccess,
  LOCK_BRANCH,
  lockBranchWithAccess,
} from './branchQueries';

/**
 * The statements kept whole in store/statements/ that read a branch's access row or take
 * its lock hold the clauses defined once in branchQueries.ts (which branchAccess.ts also
 * gives other services' statements): a copy that drifts fails here.
 */
describe('the branches statements hold the access row and the lock as defined once', () => {
  it('findBranchWithAccess reads the access row as BRANCH_ACCESS', () => {
    expect(findBranchWithAccess.text).to.include(compactCypher(BRANCH_ACCESS));
  });

  it('lockBranchWithAccess takes the lock as LOCK_BRANCH, then reads the access row', () => {
    expect(lockBranchWithAccess.text.startsWith(compactCypher(LOCK_BRANCH))).to.equal(true);
    expect(lockBranchWithAccess.text).to.include(compactCypher(BRANCH_ACCESS));
  });
});
