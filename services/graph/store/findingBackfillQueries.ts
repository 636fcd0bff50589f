/**
 * Cypher of the kept-findings backfill (commands/backfillFindings.ts): the mains of
 * stores written before findings were kept, the entities of a view in the order their
 * findings are computed (nodes a level at a time, parents first; then ports and wires),
 * and the two steps that bracket it: clearing what an earlier, unfinished attempt left
 * on the line, and publishing the kept findings by setting the line's `findings_from`.
 */
import { cypher } from '../../../shared/neo4j/namedQuery';
import { allStates } from './visibility';

/** Mains (of live projects) whose findings are still computed whole; at most $limit. */
export const mainsWithoutKeptFindings = cypher(
  'mainsWithoutKeptFindings',
  `MATCH (b:Branch) WHERE b.is_main = true AND b.findings_from IS NULL AND b.deleted_at IS NULL
   RETURN b.id AS id, b.version AS version
   LIMIT toInteger($limit)`,
);

/** The ids of the view's top-level nodes (no parent). */
export const topLevelNodeIds = cypher(
  'backfillTopLevelNodeIds',
  `${allStates('n', 'GNode', '$view', 'n.parent_id IS NULL')}
   RETURN collect(n.id) AS ids`,
);

/** The ids of every wire in the view (ports come with their nodes, from levelBelow). */
export const edgeIdsOf = cypher(
  'backfillEdgeIds',
  `${allStates('e', 'Edge')}
   RETURN collect(e.id) AS ids`,
);

/** Takes main $mainId's write lock (held until commit), as merges and forks do. */
export const lockMainRecord = cypher(
  'lockMainForBackfill',
  `MATCH (b:Branch {id: $mainId})
   SET b.lock_seq = coalesce(b.lock_seq, 0) + 1
   RETURN b.id AS id`,
);

/**
 * Claims main $mainId for a backfill run ($claim), unless another run holds a claim
 * taken after $staleBefore: two runs at once would each write a record of the same
 * finding. Run after lockMainRecord in the same transaction, so that it reads a claim
 * committed meanwhile (the test and the write are not one atomic step otherwise). No
 * row: not claimed.
 */
export const claimBackfill = cypher(
  'claimFindingsBackfill',
  `MATCH (b:Branch {id: $mainId})
   WHERE b.findings_from IS NULL
     AND (b.findings_claim IS NULL OR b.findings_claim_at < $staleBefore)
   SET b.findings_claim = $claim, b.findings_claim_at = $now
   RETURN b.version AS version`,
);

/** Removes, in small transactions, the kept findings on line $line (an attempt's leftovers). */
export const clearLineFindings = cypher(
  'clearLineFindings',
  `MATCH (x:GFinding {branch_id: $line})
   CALL (x) { DETACH DELETE x } IN TRANSACTIONS OF 1000 ROWS
   RETURN count(*) AS deleted`,
);

/**
 * Publishes the findings kept at main's version $version: sets `findings_from` when
 * main is still at that version, has none and is still claimed by $claim (a merge
 * meanwhile wrote a version whose findings were not kept, so the attempt is void; the
 * claim is then kept until the run has removed what it wrote). No row: the claim was
 * lost to another run. Writing the Branch record
 * takes main's write lock, which merges take first: either a merge committed before
 * (the version moved: not done) or it runs after and refreshes from kept findings.
 */
export const publishKeptFindings = cypher(
  'publishKeptFindings',
  `MATCH (b:Branch {id: $mainId}) WHERE b.findings_claim = $claim
   WITH b, b.version = $version AND b.findings_from IS NULL AS done
   SET b.findings_from = CASE WHEN done THEN toInteger($version) ELSE b.findings_from END
   FOREACH (_ IN CASE WHEN done THEN [1] ELSE [] END |
     REMOVE b.findings_claim, b.findings_claim_at)
   RETURN done`,
);

/** Lets go of claim $claim on main $mainId (after a run that did not publish). */
export const releaseBackfill = cypher(
  'releaseFindingsBackfill',
  `MATCH (b:Branch {id: $mainId}) WHERE b.findings_claim = $claim
   REMOVE b.findings_claim, b.findings_claim_at
   RETURN true AS released`,
);
