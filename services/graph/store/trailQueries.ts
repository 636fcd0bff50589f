/**
 * Cypher of the change trail (graph/trail/): one Change record per version a line
 * published (a batch, a revert, a merge into main, an import), written by one clause
 * (recordChangeCypher) with one property map, and the Touch records that index what
 * each change touched: (branch_id, key, version), key being a node id, a port id or a
 * wire id (trail/touches.ts), so the changes that touched one node are an index seek.
 */
import { cypher } from '../../../shared/neo4j/namedQuery';
import { optionalStateOf } from './visibility';

export const trailSchema = [
  cypher(
    'changeBranchVersion',
    'CREATE INDEX change_branch_version IF NOT EXISTS FOR (c:Change) ON (c.branch_id, c.version)',
  ),
  cypher(
    'changeIdempotency',
    'CREATE INDEX change_idempotency IF NOT EXISTS FOR (c:Change) ON (c.branch_id, c.idempotency_key)',
  ),
  // the worker's sweep finds keyed batches through it to forget expired keys
  cypher(
    'changeIdempotencyKey',
    'CREATE INDEX change_idempotency_key IF NOT EXISTS FOR (c:Change) ON (c.idempotency_key)',
  ),
  // the history sweep finds each line's newest version published before its retention
  // window through it (a range on created_at), instead of reading the line's whole trail
  cypher(
    'changeBranchCreated',
    'CREATE INDEX change_branch_created IF NOT EXISTS FOR (c:Change) ON (c.branch_id, c.created_at)',
  ),
  // a node's history: the touches of one key on one line, newest first
  cypher(
    'touchBranchKeyVersion',
    'CREATE INDEX touch_branch_key_version IF NOT EXISTS FOR (t:Touch) ON (t.branch_id, t.key, t.version)',
  ),
];

/** A Touch record of the change at `version` of line `branch`, from the map `t` (a
 * TouchRow: key, entity, id, action, fields, ports): the one shape every writer creates. */
const touchOf = (branch: string, version: string, t: string) =>
  `(:Touch {branch_id: ${branch}, version: ${version}, key: ${t}.key, entity: ${t}.entity,
            entity_id: ${t}.id, action: ${t}.action, fields: ${t}.fields, ports: ${t}.ports})`;

/**
 * Records a change on the line bound to `b` at its current version: the Change record
 * with the properties `$change` (trail/changeRecord.ts changeParams) and one Touch
 * record per row of `$touches`. Every writer of the trail records through this clause.
 * Its counts are stored as integers (a map parameter carries numbers as floats).
 */
export function recordChangeCypher(b: string): string {
  return `CREATE (c:Change {branch_id: ${b}.id, version: ${b}.version})
   SET c += $change, c.deltas_bytes = toInteger(c.deltas_bytes),
       c.positions_applied = toInteger(c.positions_applied),
       c.reverted_version = toInteger(c.reverted_version),
       c.rebase_base = toInteger(c.rebase_base),
       c.rebase_previous_base = toInteger(c.rebase_previous_base)
   FOREACH (t IN $touches | CREATE ${touchOf(`${b}.id`, `${b}.version`, 't')})`;
}

/** Records a change on branch $branchId at its current version (a writer whose own
 * statement does not record it: an import's main at version 0). */
export const recordChange = cypher(
  'recordChange',
  `MATCH (b:Branch {id: $branchId})
   ${recordChangeCypher('b')}
   RETURN b.version AS version`,
);

/** Touches of a staged write (an import's content, chunk by chunk) on line $line at
 * version $version, before the line's Branch record exists. */
export const recordTouches = cypher(
  'recordTouches',
  `UNWIND $touches AS t
   CREATE ${touchOf('$line', 'toInteger($version)', 't')}
   RETURN count(*) AS recorded`,
);

/**
 * Completes the merge record bound to `c` (its merged_branch_id set): a bounded summary
 * of the merged branch's trail (how many changes, their first and last versions),
 * never its deltas, which stay on the merged branch's own trail; and the merged
 * branch's touches as the merge's, one per key and entity, their fields and ports
 * united, the strongest action kept.
 */
function mergeSummaryCypher(c: string): string {
  return `CALL (${c}) {
     MATCH (m:Change {branch_id: ${c}.merged_branch_id}) WHERE m.version IS NOT NULL
     RETURN count(m) AS batches, coalesce(min(m.version), 0) AS fromVersion,
            coalesce(max(m.version), 0) AS toVersion
   }
   SET ${c}.merged_batches = batches, ${c}.merged_from_version = fromVersion,
       ${c}.merged_to_version = toVersion, ${c}.deltas = null, ${c}.deltas_bytes = 0,
       ${c}.touched = true
   WITH ${c}
   CALL (${c}) {
     MATCH (t:Touch {branch_id: ${c}.merged_branch_id})
       WHERE t.key IS NOT NULL AND t.version IS NOT NULL
     WITH t.key AS key, t.entity_id AS id, t.entity AS entity, collect(t.action) AS actions,
          collect(t.fields) AS fieldLists, collect(t.ports) AS portLists
     WITH {key: key, entity: entity, id: id,
           action: CASE WHEN 'removed' IN actions THEN 'removed'
                        WHEN 'added' IN actions THEN 'added' ELSE 'changed' END,
           fields: reduce(acc = [], l IN fieldLists | acc + [f IN l WHERE NOT f IN acc]),
           ports: reduce(acc = [], l IN portLists | acc + [p IN l WHERE NOT p IN acc])} AS row
     CREATE ${touchOf(`${c}.branch_id`, `${c}.version`, 'row')}
     RETURN count(*) AS copied
   }`;
}

/** Records a merge on main ($branchId, already advanced to the merge's version), from
 * $change (its merged_branch_id set), completed by mergeSummaryCypher. */
export const recordMergedChange = cypher(
  'recordMergedChange',
  `MATCH (b:Branch {id: $branchId})
   CREATE (c:Change {branch_id: b.id, version: b.version})
   SET c += $change
   WITH c
   ${mergeSummaryCypher('c')}
   RETURN c.version AS version, copied`,
);

/**
 * The store migration's step for a merge recorded before the trail was bounded: its
 * record is completed like a new merge's (mergeSummaryCypher), which drops the merged
 * deltas it held. After the merged branch's own touches were backfilled.
 */
export const backfillMergeRecord = cypher(
  'backfillMergeRecord',
  `MATCH (c:Change {branch_id: $branchId, version: $version})
   WHERE c.kind = 'merge' AND c.touched IS NULL AND c.merged_branch_id IS NOT NULL
   ${mergeSummaryCypher('c')}
   RETURN c.version AS version, copied`,
);

/** Up to $limit changes of $kinds recorded before the trail indexed touches. */
export const changesWithoutTouches = cypher(
  'changesWithoutTouches',
  `MATCH (c:Change) WHERE c.touched IS NULL AND coalesce(c.kind, 'batch') IN $kinds
   RETURN c.branch_id AS branchId, c.version AS version, c.deltas AS deltas
   LIMIT toInteger($limit)`,
);

/** The store migration's step for batches and reverts recorded before the trail indexed
 * touches: their touches ($changes: branchId, version, touches), computed from their
 * deltas. */
export const backfillChangeTouches = cypher(
  'backfillChangeTouches',
  `UNWIND $changes AS ch
   MATCH (c:Change {branch_id: ch.branchId, version: ch.version}) WHERE c.touched IS NULL
   SET c.touched = true
   FOREACH (t IN ch.touches | CREATE ${touchOf('c.branch_id', 'c.version', 't')})
   RETURN count(c) AS backfilled`,
);

/**
 * The change recorded under this key by this user since $since (a retry after a lost
 * answer), whichever write recorded it: a batch (applyDeltas) or a revert
 * (revertBranch), told apart by `kind`. A key older than the idempotency window is
 * forgotten, as in Redis.
 */
export const findChangeByIdempotencyKey = cypher(
  'findChangeByIdempotencyKey',
  `MATCH (c:Change {branch_id: $branchId, idempotency_key: $key})
   WHERE c.idempotency_scope = $scope AND c.created_at >= $since
   RETURN c.version AS version, c.positions_applied AS positionsApplied,
          c.idempotency_fingerprint AS fingerprint, c.kind AS kind,
          c.reverted_version AS revertedVersion
   LIMIT 1`,
);

/** Forgets the Idempotency-Keys of batches recorded before $before, at most $limit of them. */
export const expireIdempotencyKeys = cypher(
  'expireIdempotencyKeys',
  `MATCH (c:Change) WHERE c.idempotency_key IS NOT NULL AND c.created_at < $before
   WITH c LIMIT toInteger($limit)
   SET c.idempotency_key = null, c.idempotency_scope = null, c.idempotency_fingerprint = null
   RETURN count(c) AS expired`,
);

/** A branch's applied batches, reverts (recorded as the deltas of their inverse) and
 * rebases (recorded as the branch's changes as one batch on its new base) after
 * $afterVersion, oldest first, at most $limit: what a replay applies, in order. */
export const listBatchesPage = cypher(
  'listBranchBatchesPage',
  `MATCH (c:Change {branch_id: $branchId})
   WHERE c.version > $afterVersion AND coalesce(c.kind, 'batch') IN ['batch', 'revert', 'rebase']
   RETURN c.version AS version, c.deltas AS deltas
   ORDER BY c.version ASC
   LIMIT toInteger($limit)`,
);

/**
 * The versions and recorded sizes of one page of a branch's trail, newest first;
 * one row more than asked = has_more. The records themselves are read by
 * listChangesByVersion once the page is cut to its byte budget.
 */
export const listChangeSizes = cypher(
  'listChangeSizes',
  `MATCH (c:Change {branch_id: $branchId})
   RETURN c.version AS version,
          CASE WHEN c.kind = 'merge' THEN 0
               ELSE coalesce(c.deltas_bytes, size(coalesce(c.deltas, ''))) END AS bytes
   ORDER BY c.version DESC
   SKIP toInteger($offset) LIMIT toInteger($limit) + 1`,
);

/** The Change records of versions $versions of branch $branchId, with the deltas of
 * batches and reverts (a merge's are never read: it is presented by its summary, and
 * one recorded before the trail was bounded may hold a whole branch's trail). */
export const listChangesByVersion = cypher(
  'listChangesByVersion',
  `UNWIND $versions AS v
   MATCH (c:Change {branch_id: $branchId, version: v})
   RETURN c {.version, .kind, .actor_id, .created_at, .idempotency_key,
             deltas: CASE WHEN c.kind = 'merge' THEN null ELSE c.deltas END,
             .merged_branch_id, .mode, .reverted_version, .merged_batches,
             .merged_from_version, .merged_to_version, .rebase_base,
             .rebase_previous_base, .rebase_resolutions} AS change
   ORDER BY c.version DESC`,
);

/**
 * The touches of the ids $keys on the lines $lines (each `{id, ver}`: the line and the
 * newest version of it the reader sees), through the (branch_id, key, version) index.
 */
export const touchesOfKeys = cypher(
  'touchesOfKeys',
  `UNWIND $lines AS line
   UNWIND $keys AS key
   MATCH (t:Touch {branch_id: line.id, key: key}) USING INDEX t:Touch(branch_id, key, version)
   WHERE t.version <= line.ver
   RETURN t.branch_id AS line, t.version AS version, t.key AS key, t.entity AS entity,
          t.entity_id AS id, t.action AS action, t.fields AS fields, t.ports AS ports`,
);

/** Who and when of the changes $changes (each `{line, version}`), without their deltas. */
export const changesAt = cypher(
  'trailChangesAt',
  `UNWIND $changes AS at
   MATCH (c:Change {branch_id: at.line, version: at.version})
   RETURN c {.branch_id, .version, .kind, .actor_id, .created_at, .merged_branch_id, .mode,
             .reverted_version} AS change`,
);

/** Whether node $nodeId exists in $view (a node with no recorded touches, written
 * before the trail indexed them, still has a history: an empty one). */
export const nodeInView = cypher(
  'trailNodeInView',
  `${optionalStateOf('n', 'GNode', '$nodeId')}
   RETURN n IS NOT NULL AS exists`,
);

/** Which of the nodes $ids exist in $view (a batch's write view, after its writes). */
export const nodesInView = cypher(
  'trailNodesInView',
  `UNWIND $ids AS id
   CALL (id) {
     ${optionalStateOf('n', 'GNode', 'id')}
     RETURN n IS NOT NULL AS exists
   }
   RETURN id, exists`,
);
