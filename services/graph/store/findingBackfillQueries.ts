/**
 * Cypher of the kept-findings backfill (commands/backfillFindings.ts): the mains of
 * stores written before findings were kept, the entities of a view in the order their
 * findings are computed (nodes a level at a time, parents first; then ports and wires),
 * and the two steps that bracket it: clearing what an earlier, unfinished attempt left
 * on the line, and publishing the kept findings by setting the line's `findings_from`.
 */
import { join } from 'node:path';
import { statementsIn } from '../../../shared/neo4j/statementFiles';

const statement = statementsIn(join(__dirname, 'statements'));

/** Mains (of live projects) whose findings are still computed whole; at most $limit. */
export const mainsWithoutKeptFindings = statement('mainsWithoutKeptFindings');

/** The ids of the view's top-level nodes (no parent). */
export const topLevelNodeIds = statement('backfillTopLevelNodeIds');

/** The ids of every wire in the view (ports come with their nodes, from levelBelow). */
export const edgeIdsOf = statement('backfillEdgeIds');

/** Takes main $mainId's write lock (held until commit), as merges and forks do. */
export const lockMainRecord = statement('lockMainForBackfill');

/**
 * Claims main $mainId for a backfill run ($claim), unless another run holds a claim
 * taken after $staleBefore: two runs at once would each write a record of the same
 * finding. Run after lockMainRecord in the same transaction, so that it reads a claim
 * committed meanwhile (the test and the write are not one atomic step otherwise). No
 * row: not claimed.
 */
export const claimBackfill = statement('claimFindingsBackfill');

/** Removes, in small transactions, the kept findings on line $line (an attempt's leftovers). */
export const clearLineFindings = statement('clearLineFindings');

/**
 * Publishes the findings kept at main's version $version: sets `findings_from` when
 * main is still at that version, has none and is still claimed by $claim (a merge
 * meanwhile wrote a version whose findings were not kept, so the attempt is void; the
 * claim is then kept until the run has removed what it wrote). No row: the claim was
 * lost to another run. Writing the Branch record
 * takes main's write lock, which merges take first: either a merge committed before
 * (the version moved: not done) or it runs after and refreshes from kept findings.
 */
export const publishKeptFindings = statement('publishKeptFindings');

/** Lets go of claim $claim on main $mainId (after a run that did not publish). */
export const releaseBackfill = statement('releaseFindingsBackfill');
