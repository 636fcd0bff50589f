/**
 * Cypher of the merge service: main's lock, the recorded trails (Change nodes, see
 * graph/store/changeQueries.ts) and the merge's own writes on main and on the merged branch.
 */
import { cypher } from '../../../shared/neo4j/namedQuery';

const BRANCH = 'b {.*} AS branch';

/**
 * Main of a project under its exclusive write lock. A merge locks main first and
 * then the branch, always in that order, so two merges never deadlock.
 */
export const lockMainBranch = cypher(
  'lockMainBranch',
  `MATCH (b:Branch {project_id: $projectId, is_main: true}) WHERE b.deleted_at IS NULL
   SET b.lock_seq = coalesce(b.lock_seq, 0) + 1
   RETURN ${BRANCH}`,
);

/**
 * One page of a branch's applied batches after a version, oldest first: what a
 * replay applies, in order, read a few batches at a time (branchHistory.ts).
 */
export const listBranchBatchesPage = cypher(
  'listBranchBatchesPage',
  `MATCH (c:Change {branch_id: $branchId})
   WHERE c.version > $afterVersion AND coalesce(c.kind, 'batch') = 'batch'
   RETURN c.version AS version, c.deltas AS deltas
   ORDER BY c.version ASC
   LIMIT toInteger($limit)`,
);

/** One page of main's merges after a version, oldest first, with their before-images. */
export const listMergesSince = cypher(
  'listMergesSince',
  `MATCH (c:Change {branch_id: $mainId})
   WHERE c.version > $sinceVersion AND c.kind = 'merge'
   RETURN c.version AS version, c.base_images AS images
   ORDER BY c.version ASC
   LIMIT toInteger($limit)`,
);

/** Advances main by one and records the merge on main's trail, in the merge transaction. */
export const recordMerge = cypher(
  'recordMerge',
  `MATCH (b:Branch {id: $mainId})
   SET b.version = b.version + 1, b.last_active_at = $now
   CREATE (c:Change {branch_id: b.id, version: b.version, kind: 'merge', actor_id: $actorId,
                     created_at: $now, deltas: $deltas, deltas_bytes: $deltasBytes,
                     idempotency_key: null,
                     idempotency_scope: null, positions_applied: null,
                     merged_branch_id: $mergedBranchId, mode: $mode, base_images: $images})
   RETURN ${BRANCH}`,
);

export const markBranchMerged = cypher(
  'markBranchMerged',
  `MATCH (b:Branch {id: $id})
   SET b.status = 'merged', b.merged_at = $now, b.last_active_at = $now
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
             .merged_branch_id, .mode} AS change
   ORDER BY c.version DESC`,
);
