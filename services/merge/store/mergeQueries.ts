/**
 * Cypher of the merge service (mergeBranch, previewMerge, listChanges): the recorded
 * trails (Change nodes, see graph/store/changeQueries.ts) and the merge's own writes
 * on main and on the merged branch.
 */
import { cypher } from '../../../shared/neo4j/namedQuery';

const BRANCH = 'b {.*} AS branch';

/**
 * One page of a trail's records after $afterVersion, oldest first, at most $limit:
 * the trail is read a few records at a time. `kindIs` picks the records, `column`
 * what is read of each besides its version.
 */
const trailPage = (name: string, kindIs: string, column: string) =>
  cypher(
    name,
    `MATCH (c:Change {branch_id: $branchId})
     WHERE c.version > $afterVersion AND ${kindIs}
     RETURN c.version AS version, ${column}
     ORDER BY c.version ASC
     LIMIT toInteger($limit)`,
  );

/** A branch's applied batches, reverts included (recorded as the deltas of their
 * inverse): what a replay applies, in order (branchHistory.ts). */
export const listBranchBatchesPage = trailPage(
  'listBranchBatchesPage',
  "coalesce(c.kind, 'batch') IN ['batch', 'revert']",
  'c.deltas AS deltas',
);

/**
 * Advances main by one, publishing the records the merge wrote at that version, and
 * records the merge on main's trail, in the merge transaction.
 */
export const recordMerge = cypher(
  'recordMerge',
  `MATCH (b:Branch {id: $mainId})
   SET b.version = b.version + 1, b.last_active_at = $now
   CREATE (c:Change {branch_id: b.id, version: b.version, kind: 'merge', actor_id: $actorId,
                     created_at: $now, deltas: $deltas, deltas_bytes: $deltasBytes,
                     idempotency_key: null,
                     idempotency_scope: null, positions_applied: null,
                     merged_branch_id: $mergedBranchId, mode: $mode})
   RETURN ${BRANCH}`,
);

/**
 * The versions and recorded sizes of one page of a branch's trail, newest first;
 * one row more than asked = has_more. The records themselves are read by
 * listChangesByVersion once the page is cut to its byte budget.
 */
export const listChangeSizes = cypher(
  'listChangeSizes',
  `MATCH (c:Change {branch_id: $branchId})
   RETURN c.version AS version, coalesce(c.deltas_bytes, size(coalesce(c.deltas, ''))) AS bytes
   ORDER BY c.version DESC
   SKIP toInteger($offset) LIMIT toInteger($limit) + 1`,
);

export const listChangesByVersion = cypher(
  'listChangesByVersion',
  `UNWIND $versions AS v
   MATCH (c:Change {branch_id: $branchId, version: v})
   RETURN c {.version, .actor_id, .created_at, .deltas, .idempotency_key, .kind,
             .merged_branch_id, .mode, .reverted_version} AS change
   ORDER BY c.version DESC`,
);
