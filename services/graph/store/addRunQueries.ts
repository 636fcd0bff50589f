/**
 * Cypher of the add-run fast path: one statement reads every fact a run of
 * add_node/add_edge deltas needs (deltas/runFacts.ts), through a write view, the wires
 * its new ports will complete included; the run is then checked (deltas/addRunApplier.ts)
 * and written through recordWrites.ts, or, for a batch's leading run, in the same
 * statement as the read (lockAndPrefetchAddRun).
 */
import { join } from 'node:path';
import { statementsIn } from '../../../shared/neo4j/statementFiles';

const statement = statementsIn(join(__dirname, 'statements'));

/**
 * Each fact asked only of the ids that need it, the lists in one map, $asked
 * (deltas/runFacts.ts runFactsAsked), so that a list empty on one call and not on the
 * next keeps one plan: which of $asked.ids (the ids the run adds) the view already uses,
 * as a node, a port or a wire (`usedIds`), and which of them it has a tombstone of
 * (`tombstoned`: the only ids whose rows a write must close a record of); channel, owner,
 * owner kind and type of the ports $asked.handles (the run's wire ends it has not created
 * by then) name (the owner's kind as the port stores it, or its node's:
 * findWiresOnPorts), and for an input port whether its unsatisfied_input finding is kept;
 * the taken sibling names of $asked.names; the kind and first ancestors of each of
 * $asked.parentIds that exists (`parents` and `ancestors`: as ancestorChains;
 * deltas/ancestry.ts continues a deeper chain) and whether its orphan_node finding is
 * kept (`orphansKept`); the wires already on the ports $asked.newPortIds the run will
 * create, with their ends (a wire committed before its port); whether the view keeps its
 * findings; and the view read through. The findings facts let a run's findings be
 * derived without reading after its write (runFindings.ts).
 *
 * The ids, ports and parents are each one seek per id on the label's (id) index, in one
 * operator, not a subquery per id: measured at about 1 ms less for the ports and for the
 * parents of a 100-delta batch each than a subquery per id, and as much again than a
 * seek per id and line. The findings of the ports and parents, and the wires on new
 * ports, are looked up on a (branch_id, ...) index, one value per subquery: with a list
 * there, a plan made on a small store reads every finding or wire of the line instead
 * (visibility.ts seek).
 */
/** The run's facts through the write view `$view` (the same reads as lockAndPrefetchAddRun's). */
export const prefetchAddRun = statement('prefetchAddRun');

/**
 * The write lock of branch $id, the caller's ($userId) access row, the run's facts
 * through the write view of the branch's row as the lock leaves it (the next version of
 * its line), and, when $write, the run's nodes, ports and wires ($nodes, $ports, $edges:
 * createStatesBody rows), in one statement: a batch's first statement (applyDeltas).
 *
 * The facts are read before the write (a statement's clauses see only what the clauses
 * before them wrote), so they say what the view held before the batch. The rows are
 * written only to a branch that passes the branches service's checks of a batch
 * (branches' batchWritableCypher: a working branch, active, owned by the caller, at
 * $expectedVersion); `prewritten` says whether they were. Only the rows of ids the view
 * has a tombstone of can have a record left open on the line (any other open record is
 * visible, and refuses the batch), so only those are looked up to be closed.
 *
 * When the run is the whole batch, $record (`publish` true; else false) plans its findings
 * (graph/runFindingPlan.ts: `opened`, `closed`, `ends`) and counts its nodes and wires,
 * and the statement also publishes the batch (changeQueries.ts publishBatchCypher, with
 * its parameters) once the rows are written, the view keeps no wires on the run's new
 * ports, the branch's usage counters are set, and the plan's assumptions hold on the
 * facts just read (each tested by list membership, `IN`, on lists built once from the
 * facts: Cypher answers `IN` from a set it builds once; 20,000 tests against 20,000 ids
 * took 68 ms, 2,000 `any()` scans of 20,000 maps 121 ms, and scanning the facts per plan
 * entry cost 1 to 3 ms of a 34 ms 100-delta statement, against about 1 ms by
 * membership). It writes the findings the plan chooses on those facts and answers
 * `recorded`: the new version, the ids of the findings opened and closed; null when it
 * did not publish, and the batch is recorded after its checks (recordBatch). `branch`
 * is the row as it was before.
 *
 * The caller checks the access row (branchGrant) and the run against the facts
 * afterwards; a refusal rolls the transaction back, write and record included. No row
 * when there is no such branch. The lock and access row are the branches service's
 * (lockedBranchAccessCypher); statementRules.spec.ts holds the text to both of its
 * definitions.
 */
export const lockAndPrefetchAddRun = statement('lockAndPrefetchAddRun');
