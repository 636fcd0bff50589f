/**
 * Cypher of the add-run fast path (deltas/addRunApplier.ts): one query reads every
 * fact a run of add_node/add_edge deltas needs, one query writes the whole run.
 */
import { cypher } from '../../../shared/neo4j/namedQuery';
import { WIRES_ON_PORTS } from './deltaQueries';

/**
 * For each id: node kind and nesting depth (1 = top level; counted up the
 * containment chain, which MAX_NESTING_DEPTH keeps short), or port
 * channel/owner/owner kind, or edge; plus taken sibling names.
 */
export const prefetchAddRun = cypher(
  'prefetchAddRun',
  `CALL () {
     UNWIND $ids AS id
     OPTIONAL MATCH (n:GNode {branch_id: $branchId, id: id})
     OPTIONAL MATCH (owner:GNode)-[:HAS_PORT]->(p:Port {branch_id: $branchId, id: id})
     OPTIONAL MATCH (e:Edge {branch_id: $branchId, id: id})
     WITH id, n, p, owner, e WHERE n IS NOT NULL OR p IS NOT NULL OR e IS NOT NULL
     WITH id, n, p, owner, e,
          CASE WHEN n IS NULL THEN null
               ELSE COUNT { MATCH (:GNode)-[:CONTAINS*1..]->(n) } + 1 END AS depth
     RETURN collect({id: id, nodeKind: n.kind, depth: depth, portChannel: p.channel,
                     portNode: owner.id, portNodeKind: owner.kind, edge: e IS NOT NULL}) AS facts
   }
   CALL () {
     UNWIND $names AS pair
     MATCH (n:GNode {branch_id: $branchId, scope: pair.scope, name: pair.name})
     RETURN collect(DISTINCT pair.key) AS takenNames
   }
   RETURN facts, takenNames`,
);

/**
 * Creates the nodes (with ports), their containment links and the edges of a run,
 * then returns the wires on the new ports $portIds, as findWiresOnPorts does (for
 * deltas/wiresOnNewPorts.ts), in the same round trip.
 */
export const writeAddRun = cypher(
  'writeAddRun',
  `CALL () {
     UNWIND $nodes AS row
     CREATE (n:GNode)
     SET n = row.props
     FOREACH (port IN row.ports | CREATE (n)-[:HAS_PORT]->(p:Port) SET p = port)
   }
   CALL () {
     UNWIND $links AS link
     MATCH (parent:GNode {branch_id: $branchId, id: link.parent})
     MATCH (child:GNode {branch_id: $branchId, id: link.child})
     CREATE (parent)-[:CONTAINS]->(child)
   }
   CALL () {
     UNWIND $edges AS edge
     CREATE (e:Edge)
     SET e = edge
   }
   ${WIRES_ON_PORTS}`,
);
