/** The structural_changes trail of a branch: one record per applied batch. */
import { cypher, pinnedCypher } from '../../../shared/neo4j/namedQuery';
import { createStatesBody, removeStatesBody } from './recordWriteQueries';

export const changeSchema = [
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
];

/**
 * Advances the branch version by one and records the batch (its parsed deltas as
 * JSON text, and that text's size in bytes) and the branch's usage counters after
 * it (graph/branchUsage.ts), in the apply transaction. With it, the kept findings a
 * batch of additions opens (`$openedFindings`, rows of findingRow) and closes
 * (`$closedFindings`, ids) through the write view `$view` (graph/runFindings.ts), so
 * that they cost no statement of their own; both lists are empty when the batch's
 * findings were recomputed (graph/findingRecords.ts refreshFindings).
 */
export const recordBatch = pinnedCypher(
  'recordBatch',
  `CALL () { ${createStatesBody('GFinding', '$openedFindings', 'opened')} }
   CALL () { ${removeStatesBody('GFinding', '$closedFindings')} }
   MATCH (b:Branch {id: $branchId})
   ${publishBatchCypher('b', { nodes: '$nodes', edges: '$edges', bytes: '$bytes' })}
   RETURN b.version AS version`,
);

/**
 * The clauses that publish a batch on the branch bound to `b`: its version advances by
 * one, its usage counters become `usage` (Cypher expressions), and the batch is recorded
 * at the new version ($now, $actorId, $deltas and $deltasBytes, the Idempotency-Key
 * parameters and $positionsApplied). recordBatch, and the statement that takes a batch's
 * lock when that statement records the batch too (addRunQueries.ts lockAndPrefetchAddRun).
 */
export function publishBatchCypher(
  b: string,
  usage: { nodes: string; edges: string; bytes: string },
): string {
  return `SET ${b}.version = ${b}.version + 1, ${b}.last_active_at = $now,
       ${b}.node_count = ${usage.nodes}, ${b}.edge_count = ${usage.edges}, ${b}.stored_bytes = ${usage.bytes}
   CREATE (c:Change {branch_id: ${b}.id, version: ${b}.version, kind: 'batch', actor_id: $actorId,
                     created_at: $now, deltas: $deltas, deltas_bytes: $deltasBytes,
                     idempotency_key: $idempotencyKey,
                     idempotency_scope: $idempotencyScope,
                     idempotency_fingerprint: $idempotencyFingerprint,
                     positions_applied: $positionsApplied})`;
}

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

export const touchBranch = cypher(
  'touchBranch',
  `MATCH (b:Branch {id: $branchId}) SET b.last_active_at = $now RETURN b.version AS version`,
);

/** Forgets the Idempotency-Keys of batches recorded before $before, at most $limit of them. */
export const expireIdempotencyKeys = cypher(
  'expireIdempotencyKeys',
  `MATCH (c:Change) WHERE c.idempotency_key IS NOT NULL AND c.created_at < $before
   WITH c LIMIT toInteger($limit)
   SET c.idempotency_key = null, c.idempotency_scope = null, c.idempotency_fingerprint = null
   RETURN count(c) AS expired`,
);

/** A branch's version alone (a full read checks that it did not move while it read). */
export const readBranchVersion = cypher(
  'readBranchVersion',
  `MATCH (b:Branch {id: $id}) RETURN b.version AS version`,
);
