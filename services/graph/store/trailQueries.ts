/**
 * Cypher of the change trail (graph/trail/): one Change record per version a line
 * published (a batch, a revert, a merge into main, an import), written by one clause
 * (recordChangeCypher) with one property map, and the Touch records that index what
 * each change touched: (branch_id, key, version), key being a node id, a port id or a
 * wire id (trail/touches.ts), so the changes that touched one node are an index seek.
 */
import { join } from 'node:path';
import { cypher } from '../../../shared/neo4j/namedQuery';
import { statementsIn } from '../../../shared/neo4j/statementFiles';

const statement = statementsIn(join(__dirname, 'statements'));

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
 * TouchRow: key, entity, id, action, fields, ports, wires): the one shape every writer creates
 * (statementRules.spec.ts holds every statement that creates one to it). */
export const touchOf = (branch: string, version: string, t: string) =>
  `(:Touch {branch_id: ${branch}, version: ${version}, key: ${t}.key, entity: ${t}.entity,
            entity_id: ${t}.id, action: ${t}.action, fields: ${t}.fields, ports: ${t}.ports,
            wires: ${t}.wires})`;

/**
 * Records a change on the line bound to `b` at its current version: the Change record
 * with the properties `$change` (trail/changeRecord.ts changeParams) and one Touch
 * record per row of `$touches`. Every writer of the trail records through this clause
 * (statementRules.spec.ts holds each statement that records a change to it).
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
export const recordChange = statement('recordChange');

/** Touches $touches of the change at version $version of line $line, written apart from
 * its Change record (an import's, written down by trail/importTouches.ts). */
export const recordTouches = statement('recordTouches');

/**
 * The touches an import derives (trail/importTouches.ts) of the nodes $ids on main's line
 * $line: for each node with a version-0 record and no Touch of version 0 written down,
 * the property names its record stores, its version-0 ports (id, channel, ord) and the
 * version-0 wires on them. None unless the line's version 0
 * is an import marked `touches_derived`.
 */
export const importTouchesOfNodes = statement('importTouchesOfNodes');

/** Whether line $line's import is marked `touches_derived` (`marked`) and, if so, the ids
 * of up to $limit nodes with a version-0 record on it after id $after, in id order. */
export const importedNodeIdsPage = statement('importedNodeIdsPage');

/** Drops the `touches_derived` mark of line $line's import once its touches are written. */
export const closeImportTouches = statement('closeImportTouches');

/** The distinct elements of the lists in `lists`, in one pass over them: a merge unites
 * the touches of a whole branch, whose lists of one node (its wires above all) can be
 * long, so a union that compared each element with all those before would cost their
 * square. */
const unionOf = (lists: string) =>
  `COLLECT { UNWIND ${lists} AS l UNWIND l AS x RETURN DISTINCT x }`;

/**
 * The merged branch's touches recorded as the merge's, on the Change record bound to
 * `c`: one per key and entity, their fields, ports and wires united, the strongest action
 * kept. The body recordMergedChange and backfillMergeRecord share (statementRules.spec.ts
 * holds both to it). Answers how many, as `copied`.
 */
export const mergedTouchesCypher = (c: string) => `CALL (${c}) {
  MATCH (t:Touch {branch_id: ${c}.merged_branch_id})
    WHERE t.key IS NOT NULL AND t.version IS NOT NULL
  WITH t.key AS key, t.entity_id AS id, t.entity AS entity, collect(t.action) AS actions,
       collect(t.fields) AS fieldLists, collect(t.ports) AS portLists, collect(t.wires) AS wireLists
  WITH {key: key, entity: entity, id: id,
        action: CASE WHEN 'removed' IN actions THEN 'removed' WHEN 'added' IN actions THEN 'added' ELSE 'changed' END,
        fields: ${unionOf('fieldLists')}, ports: ${unionOf('portLists')},
        wires: ${unionOf('wireLists')}} AS row
  CREATE ${touchOf(`${c}.branch_id`, `${c}.version`, 'row')}
  RETURN count(*) AS copied
}`;

/**
 * Records a merge on main ($branchId, already advanced to the merge's version), from
 * $change (its merged_branch_id set), and completes it: a bounded summary of the merged
 * branch's trail (how many changes, their first and last versions), never its deltas,
 * which stay on the merged branch's own trail; and the merged branch's touches as the
 * merge's (mergedTouchesCypher). backfillMergeRecord completes an older merge's record
 * the same way.
 */
export const recordMergedChange = statement('recordMergedChange');

/**
 * The store migration's step for a merge recorded before the trail was bounded: its
 * record is completed like a new merge's (recordMergedChange), which drops the merged
 * deltas it held. After the merged branch's own touches were backfilled.
 */
export const backfillMergeRecord = statement('backfillMergeRecord');

/** Up to $limit changes of $kinds recorded before the trail indexed touches. */
export const changesWithoutTouches = statement('changesWithoutTouches');

/** The store migration's step for batches and reverts recorded before the trail indexed
 * touches: their touches ($changes: branchId, version, touches), computed from their
 * deltas. */
export const backfillChangeTouches = statement('backfillChangeTouches');

/**
 * The change recorded under this key by this user since $since (a retry after a lost
 * answer), whichever write recorded it: a batch (applyDeltas) or a revert
 * (revertBranch), told apart by `kind`. A key older than the idempotency window is
 * forgotten, as in Redis.
 */
export const findChangeByIdempotencyKey = statement('findChangeByIdempotencyKey');

/** Forgets the Idempotency-Keys of batches recorded before $before, at most $limit of them. */
export const expireIdempotencyKeys = statement('expireIdempotencyKeys');

/** A branch's applied batches and reverts (recorded as the deltas of their inverse)
 * after $afterVersion, oldest first, at most $limit: what a replay applies, in order. */
export const listBatchesPage = statement('listBranchBatchesPage');

/**
 * The versions and recorded sizes of one page of a branch's trail, newest first;
 * one row more than asked = has_more. The records themselves are read by
 * listChangesByVersion once the page is cut to its byte budget.
 */
export const listChangeSizes = statement('listChangeSizes');

/** The Change records of versions $versions of branch $branchId, with the deltas of
 * batches and reverts (a merge's are never read: it is presented by its summary, and
 * one recorded before the trail was bounded may hold a whole branch's trail). */
export const listChangesByVersion = statement('listChangesByVersion');

/**
 * The touches of the ids $keys on the lines $lines (each `{id, ver}`: the line and the
 * newest version of it the reader sees), through the (branch_id, key, version) index.
 */
export const touchesOfKeys = statement('touchesOfKeys');

/** Who and when of the changes $changes (each `{line, version}`), without their deltas. */
export const changesAt = statement('trailChangesAt');

/** Whether node $nodeId exists in $view (a node with no recorded touches, written
 * before the trail indexed them, still has a history: an empty one). */
export const nodeInView = statement('trailNodeInView');

/** Which of the nodes $ids exist in $view (a batch's write view, after its writes). */
export const nodesInView = statement('trailNodesInView');
