/**
 * Cypher of the add-run fast path: one statement reads every fact a run of
 * add_node/add_edge deltas needs (deltas/runFacts.ts), through a write view, the wires
 * its new ports will complete included; the run is then checked (deltas/addRunApplier.ts)
 * and written through recordWrites.ts, or, for a batch's leading run, in the same
 * statement as the read (lockAndPrefetchAddRun).
 */
import { pinnedCypher } from '../../../shared/neo4j/namedQuery';
import { batchWritableCypher, lockedBranchAccessCypher } from '../../branches';
import {
  ancestorLevelsOf,
  portNodeId,
  portNodeKind,
  portOwnerOf,
  wiresWithEnds,
} from './deltaQueries';
import { findingIdCypher, keptThrough } from './findingRecordQueries';
import { publishBatchCypher } from './changeQueries';
import { ORPHAN_NODE, UNSATISFIED_INPUT } from '../findingRules';
import { createStatesBody, removeStatesBody } from './recordWriteQueries';
import {
  statesIn,
  statesWhere,
  statesWithIds,
  viewFieldsOf,
  viewImport,
  viewImportAfter,
} from './visibility';

/**
 * Each fact asked only of the ids that need it: which of $ids (the ids the run adds)
 * the view already uses, as a node, a port or a wire (`usedIds`), and which of them it
 * has a tombstone of (`tombstoned`: the only ids whose rows a write must close a record
 * of); channel, owner, owner kind and type of the ports $handles (the run's wire ends it
 * has not created by then) name (the owner's kind as the port stores it, or its node's:
 * portOwnerOf), and for an input port whether its unsatisfied_input finding is kept; the
 * taken sibling names of $names; the kind and first ancestors of each of $parentIds that
 * exists (`parents` and `ancestors`: ancestorLevelsOf; deltas/ancestry.ts continues a
 * deeper chain) and whether its orphan_node finding is kept (`orphansKept`); the wires
 * already on the ports $newPortIds the run will create, with their ends (a wire
 * committed before its port); whether the view keeps its findings; and the view read
 * through, `V` (the parameter `$view`, or the query variable `view`). The findings facts
 * let a run's findings be derived without reading after its write (runFindings.ts).
 *
 * Each fact about a list of ids is one seek per id (statesWithIds), or per id and line
 * (statesIn), in one operator, not a subquery per id: measured at about 1 ms less for the
 * ports and for the parents of a 100-delta batch each, and as much again by seeking the
 * ports and parents by id alone.
 */
const prefetchThrough = (V: string, alsoReturn = '', beforeReturn = '') => {
  const imported = viewImport(V);
  const and = viewImportAfter(V);
  return `CALL (${imported}) {
     CALL (${imported}) {
       ${statesWithIds('n', 'GNode', '$ids', V, { tombstones: true })}
       RETURN n.id AS id, n.gone AS gone
       UNION
       ${statesWithIds('pt', 'Port', '$ids', V, { tombstones: true })}
       RETURN pt.id AS id, pt.gone AS gone
       UNION
       ${statesWithIds('e', 'Edge', '$ids', V, { tombstones: true })}
       RETURN e.id AS id, e.gone AS gone
     }
     RETURN collect(CASE WHEN gone IS NULL THEN id END) AS usedIds,
            collect(CASE WHEN gone THEN id END) AS tombstoned
   }
   CALL (${imported}) {
     CALL (${imported}) {
       ${statesWithIds('pt', 'Port', '$handles', V)}
       RETURN collect(pt {.id, .channel, .node_id, .node_kind, .type}) AS found
     }
     CALL (found${and}) {
       ${statesIn('uf', 'GFinding', `[p IN found WHERE p.channel = 'inputs' | ${findingIdCypher(UNSATISFIED_INPUT, 'p.id')}]`, V)}
       RETURN collect(uf.id) AS keptInputs
     }
     CALL (found${and}) {
       UNWIND found AS pt
       WITH pt WHERE pt.node_kind IS NULL
       ${portOwnerOf('pt', 'owner', V)}
       RETURN collect(pt {.*, node_id: ${portNodeId('pt', 'owner')},
                          node_kind: ${portNodeKind('pt', 'owner')}}) AS ownersRead
     }
     RETURN [pt IN [p IN found WHERE p.node_kind IS NOT NULL] + ownersRead |
             {id: pt.id, channel: pt.channel, nodeId: pt.node_id, nodeKind: pt.node_kind,
              type: pt.type, unsatisfiedKept: (${findingIdCypher(UNSATISFIED_INPUT, 'pt.id')}) IN keptInputs}] AS ports
   }
   CALL (${imported}) {
     UNWIND $names AS pair
     ${statesWhere('n', 'GNode', { scope: 'pair.scope', name: 'pair.name' }, V)}
     RETURN collect(DISTINCT pair.key) AS takenNames
   }
   CALL (${imported}) {
     ${ancestorLevelsOf('$parentIds', V)}
     CALL (parents${and}) {
       ${statesIn('of', 'GFinding', `[x IN parents | ${findingIdCypher(ORPHAN_NODE, 'x.id')}]`, V)}
       RETURN collect(of.id) AS orphanFindings
     }
     RETURN parents, ancestors,
            [x IN parents WHERE (${findingIdCypher(ORPHAN_NODE, 'x.id')}) IN orphanFindings | x.id] AS orphansKept
   }
   CALL (${imported}) {
     ${wiresWithEnds('$newPortIds', V)}
     RETURN collect(wire) AS wires
   }
   CALL (${imported}) {
     OPTIONAL MATCH (kb:Branch {id: ${V}.line})
     OPTIONAL MATCH (km:Branch {id: ${V}.main})
     RETURN ${keptThrough('kb', 'km', V)} AS findingsKept
   }
   ${beforeReturn}
   RETURN usedIds, ports, takenNames, parents, ancestors, orphansKept, wires, findingsKept,
          ${V} AS view${alsoReturn}`;
};

/** The run's facts through the write view `$view`. */
export const prefetchAddRun = pinnedCypher('prefetchAddRun', prefetchThrough('$view'));

/**
 * lockAndPrefetchAddRun's publishing of a batch that is one run of additions ($record).
 * The plan's choices are tested against the facts by list membership (`IN`), each list
 * built once from the facts: Cypher answers `IN` on a list from a set it builds once
 * (20,000 tests against 20,000 ids took 68 ms; 2,000 `any()` scans of 20,000 maps, 121
 * ms). Scanning the facts for each plan entry instead (an `any()` over the ports or
 * parents per end, finding and parent) costs the product of their sizes: measured at 1 to
 * 3 ms of a 34 ms 100-delta statement, against about 1 ms by membership.
 */
const publishRunCypher = `WITH view, b, ports, orphansKept, findingsKept
       WHERE prewritten > 0 AND $record IS NOT NULL AND size(wires) = 0
         AND b.node_count IS NOT NULL AND b.edge_count IS NOT NULL
     WITH view, b, findingsKept, orphansKept, [f IN ports | f.id] AS found,
          [f IN ports WHERE f.type IS NULL | f.id] AS untyped,
          [f IN ports WHERE f.type IS NOT NULL | [f.id, f.type]] AS typed,
          [f IN ports WHERE f.unsatisfiedKept | f.id] AS unsatisfiedKept
     WHERE all(need IN $record.ends WHERE need.port IN found
               AND (need.type IS NULL OR need.port IN untyped OR [need.port, need.type] IN typed))
     WITH view, b,
          [o IN $record.opened WHERE findingsKept
             AND (o.parent IS NULL OR o.parent IN orphansKept) | o.row] AS opened,
          [k IN $record.closed WHERE findingsKept AND k.port IN unsatisfiedKept | k.id] AS closed
     CALL (view, opened) { ${createStatesBody('GFinding', 'opened', 'openedCount', 'view')} }
     CALL (view, closed) { ${removeStatesBody('GFinding', 'closed', 'view')} }
     ${publishBatchCypher('b', {
       nodes: 'b.node_count + $record.nodes',
       edges: 'b.edge_count + $record.edges',
       bytes: 'coalesce(b.stored_bytes, 0) + $change.deltas_bytes',
     })}
     RETURN head(collect({version: b.version, opened: [r IN opened | r.id], closed: closed})) AS recorded`;

/**
 * The write lock of branch $id, the caller's ($userId) access row, the run's facts
 * through the write view of the branch's row as the lock leaves it (the next version of
 * its line), and, when $write, the run's nodes, ports and wires ($nodes, $ports, $edges:
 * createStatesBody rows), in one statement: a batch's first statement (applyDeltas).
 *
 * The facts are read before the write (a statement's clauses see only what the clauses
 * before them wrote), so they say what the view held before the batch. The rows are
 * written only to a branch that passes the branches service's checks of a batch
 * (batchWritableCypher: a working branch, active, owned by the caller, at
 * $expectedVersion); `prewritten` says whether they were. Only the rows of ids the view
 * has a tombstone of can have a record left open on the line (any other open record is
 * visible, and refuses the batch), so only those are looked up to be closed.
 *
 * When the run is the whole batch, $record (else null) plans its findings
 * (graph/runFindingPlan.ts: `opened`, `closed`, `ends`) and counts its nodes and wires,
 * and the statement also publishes the batch (changeQueries.ts publishBatchCypher, with
 * its parameters) once the rows are written, the view keeps no wires on the run's new
 * ports, the branch's usage counters are set, and the plan's assumptions hold on the
 * facts just read. It writes the findings the plan chooses on those facts and answers
 * `recorded`: the new version, the ids of the findings opened and closed; null when it
 * did not publish, and the batch is recorded after its checks (recordBatch). `branch`
 * is the row as it was before.
 *
 * The caller checks the access row (branchGrant) and the run against the facts
 * afterwards; a refusal rolls the transaction back, write and record included. No row
 * when there is no such branch.
 */
export const lockAndPrefetchAddRun = pinnedCypher(
  'lockAndPrefetchAddRun',
  `${lockedBranchAccessCypher()}
   WITH b, p, m, {${viewFieldsOf('b', 'b.version + 1')}} AS view
   ${prefetchThrough(
     'view',
     ', branch, p {.*} AS project, m.role AS role, prewritten > 0 AS prewritten, recorded',
     `CALL (view, b, tombstoned) {
       WITH view, tombstoned WHERE $write AND ${batchWritableCypher('b')}
       CALL (view, tombstoned) {
         ${createStatesBody('GNode', '$nodes', 'nodesWritten', 'view', 'tombstoned')}
       }
       CALL (view, tombstoned) {
         ${createStatesBody('Port', '$ports', 'portsWritten', 'view', 'tombstoned')}
       }
       CALL (view, tombstoned) {
         ${createStatesBody('Edge', '$edges', 'edgesWritten', 'view', 'tombstoned')}
       }
       RETURN count(*) AS prewritten
     }
     WITH *, b {.*} AS branch
     CALL (view, b, ports, orphansKept, wires, findingsKept, prewritten) {
       ${publishRunCypher}
     }`,
   )}`,
);
