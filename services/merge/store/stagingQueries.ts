/**
 * Cypher of staged merges (stagedMerge.ts): the lease a staging holds on main's Branch
 * (stage_id, stage_until in epoch ms, stage_version = the version being written), and the
 * removal of an abandoned staging's records. Records a staging writes carry vfrom = the
 * staged version and stay invisible to every reader until main's version is moved to it;
 * records it closes carry vto = that version and stay visible below it.
 */
import { cypher, NamedQuery } from '../../../shared/neo4j/namedQuery';
import { OPEN_CYPHER, seek } from '../../graph';
import type { RecordLabel } from '../../graph';

const BRANCH = 'b {.*} AS branch';

/** Takes the lease on main (under main's lock, taken earlier in the transaction). */
export const openLease = cypher(
  'openMergeLease',
  `MATCH (b:Branch {id: $mainId})
   SET b.stage_id = $stageId, b.stage_until = $until, b.stage_version = $version,
       b.stage_branch = $branchId
   RETURN ${BRANCH}`,
);

/**
 * Locks main, checks the lease is still this staging's and extends it; no row when
 * the lease was lost (taken over by the sweep after it ran out).
 */
export const holdLease = cypher(
  'holdMergeLease',
  `MATCH (b:Branch {id: $mainId})
   SET b.lock_seq = coalesce(b.lock_seq, 0) + 1
   WITH b WHERE b.stage_id = $stageId
   SET b.stage_until = $until
   RETURN ${BRANCH}`,
);

/** Ends the lease (publish or abort), when it is still this staging's. */
export const clearLease = cypher(
  'clearMergeLease',
  `MATCH (b:Branch {id: $mainId})
   WHERE b.stage_id = $stageId
   REMOVE b.stage_id, b.stage_until, b.stage_version, b.stage_branch
   RETURN b.id AS id`,
);

/** Main branches whose staging lease ran out before `$before` (abandoned stagings). */
export const findAbandonedStagings = cypher(
  'findAbandonedMergeStagings',
  `MATCH (b:Branch)
   WHERE b.is_main = true AND b.stage_id IS NOT NULL AND b.stage_until < $before
   RETURN b.id AS mainId, b.stage_id AS stageId, b.stage_version AS version
   LIMIT toInteger($limit)`,
);

/**
 * Takes an ended lease over for removal (under main's lock): no row when it was
 * renewed or ended meanwhile, or main's version already reached the staged one.
 */
export const takeOverLease = cypher(
  'takeOverMergeLease',
  `MATCH (b:Branch {id: $mainId})
   SET b.lock_seq = coalesce(b.lock_seq, 0) + 1
   WITH b WHERE b.stage_id = $stageId AND b.stage_until < $before
   SET b.stage_until = $until
   RETURN b.version AS version`,
);

const dropStaged = (label: RecordLabel): NamedQuery =>
  cypher(
    `dropStaged${label}`,
    `MATCH (s:${label}) ${seek('s', label, ['vfrom'])}
     WHERE s.branch_id = $line AND s.vfrom = $version
     CALL (s) { DELETE s } IN TRANSACTIONS OF 1000 ROWS`,
  );

const reopenClosed = (label: RecordLabel): NamedQuery =>
  cypher(
    `reopenStaged${label}`,
    `MATCH (s:${label}) ${seek('s', label, ['vto'])}
     WHERE s.branch_id = $line AND s.vto = $version
     CALL (s) { SET s.vto = ${OPEN_CYPHER} } IN TRANSACTIONS OF 1000 ROWS`,
  );

/** Content and its kept findings: a staging writes both at its version. */
const LABELS: readonly RecordLabel[] = ['GNode', 'Port', 'Edge', 'GFinding'];

/**
 * Removal of a staging of version `$version` on line `$line`, each an auto-commit
 * statement in batches: records it opened are deleted, records it closed reopened. Exact
 * because the record writes never close at a version a record they opened at it
 * (such a record is changed or deleted in place).
 */
export const ABORT_STAGING: readonly NamedQuery[] = [
  ...LABELS.map(dropStaged),
  ...LABELS.map(reopenClosed),
];
