/**
 * Cypher of the add-run fast path (deltas/addRunApplier.ts): one query reads, through
 * the write view `$view`, every fact a run of add_node/add_edge deltas needs. The run
 * is written through recordWrites.ts and its new ports' wires read with
 * findWiresOnPorts, all sent in one round trip.
 */
import { cypher } from '../../../shared/neo4j/namedQuery';
import { optionalStateOf, statesWhere } from './visibility';

/**
 * For each of $ids: node kind, or port channel/owner/owner kind, or edge; plus the
 * taken sibling names of $names. (The nesting depth of a parent is walked up its
 * parent_id chain afterwards, deltas/ancestry.ts.)
 */
export const prefetchAddRun = cypher(
  'prefetchAddRun',
  `CALL () {
     UNWIND $ids AS id
     CALL (id) {
       ${optionalStateOf('n', 'GNode', 'id')}
       ${optionalStateOf('p', 'Port', 'id')}
       ${optionalStateOf('owner', 'GNode', 'p.node_id')}
       ${optionalStateOf('e', 'Edge', 'id')}
       RETURN n, p, owner, e
     }
     WITH id, n, p, owner, e WHERE n IS NOT NULL OR p IS NOT NULL OR e IS NOT NULL
     RETURN collect({id: id, nodeKind: n.kind, portChannel: p.channel,
                     portNode: owner.id, portNodeKind: owner.kind,
                     edge: e IS NOT NULL}) AS facts
   }
   CALL () {
     UNWIND $names AS pair
     ${statesWhere('n', 'GNode', { scope: 'pair.scope', name: 'pair.name' })}
     RETURN collect(DISTINCT pair.key) AS takenNames
   }
   RETURN facts, takenNames`,
);
