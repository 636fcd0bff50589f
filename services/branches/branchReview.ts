/**
 * A working branch under review: while its change request is open, every member of its
 * project may read the branch (its graph, diffs, history, merge preview), as a reviewer
 * must see what they approve; changing it stays its owner's (requireBranchOwner). The
 * reviews service opens and ends the review in the transactions that open the change
 * request and merge or close it; the flag lives on the branch so that every read that
 * checks access (branchGrant, over the branch row each read already returns) sees it
 * without another lookup.
 */
import type { QueryRunner } from '../../shared/neo4j/namedQuery';
import { setBranchUnderReview } from './store/branchQueries';

/** Opens (`open`) or ends the review of branch `branchId`. */
export async function markUnderReview(
  tx: QueryRunner,
  branchId: string,
  open: boolean,
): Promise<void> {
  await tx.run(setBranchUnderReview, { id: branchId, open });
}
