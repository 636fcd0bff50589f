/**
 * Cypher of the add-run fast path (deltas/addRunApplier.ts): one statement reads every
 * fact a run of add_node/add_edge deltas needs, through a write view, the wires its new
 * ports will complete included; the run is then written through recordWrites.ts.
 */
import { cypher } from '../../../shared/neo4j/namedQuery';
import { ancestorChainOf, wiresWithEnds } from './deltaQueries';
import { optionalStateOf, statesWhere, viewFieldsOf } from './visibility';

/**
 * For each of $ids: node kind, or port channel/owner/owner kind, or edge; the taken
 * sibling names of $names; the first ancestor steps of each of $parentIds that exists
 * (ancestorChainOf: deltas/ancestry.ts continues a deeper chain); the wires already on
 * the ports $newPortIds the run will create, with their ends (a wire committed before
 * its port); and the view read through, `V` (the parameter `$view`, or the query
 * variable `view`).
 */
const prefetchThrough = (V: string) => {
  const imported = V.startsWith('$') ? '' : V;
  const and = imported === '' ? '' : `, ${imported}`;
  return `CALL (${imported}) {
     UNWIND $ids AS id
     CALL (id${and}) {
       ${optionalStateOf('n', 'GNode', 'id', V)}
       ${optionalStateOf('p', 'Port', 'id', V)}
       ${optionalStateOf('owner', 'GNode', 'p.node_id', V)}
       ${optionalStateOf('e', 'Edge', 'id', V)}
       RETURN n, p, owner, e
     }
     WITH id, n, p, owner, e WHERE n IS NOT NULL OR p IS NOT NULL OR e IS NOT NULL
     RETURN collect({id: id, nodeKind: n.kind, portChannel: p.channel,
                     portNode: owner.id, portNodeKind: owner.kind,
                     edge: e IS NOT NULL}) AS facts
   }
   CALL (${imported}) {
     UNWIND $names AS pair
     ${statesWhere('n', 'GNode', { scope: 'pair.scope', name: 'pair.name' }, V)}
     RETURN collect(DISTINCT pair.key) AS takenNames
   }
   CALL (${imported}) {
     UNWIND $parentIds AS id
     CALL (id${and}) {
       ${ancestorChainOf('id', V)}
     }
     RETURN collect({id: id, chain: chain, next: next}) AS chains
   }
   CALL (${imported}) {
     ${wiresWithEnds('$newPortIds', V)}
     RETURN collect(wire) AS wires
   }
   RETURN facts, takenNames, chains, wires, ${V} AS view`;
};

/** The run's facts through the write view `$view`. */
export const prefetchAddRun = cypher('prefetchAddRun', prefetchThrough('$view'));

/**
 * The run's facts through the write view of branch $branchId as its row stands when the
 * statement runs (the next version of its line): sent right behind the statement that
 * locks the branch, in the same transaction, it needs no answer from it first.
 */
export const prefetchAddRunOfBranch = cypher(
  'prefetchAddRunOfBranch',
  `MATCH (wb:Branch {id: $branchId})
   WITH {${viewFieldsOf('wb', 'wb.version + 1')}} AS view
   ${prefetchThrough('view')}`,
);
