/**
 * Cypher of the scoped reads (§4.11-4.13). Every query starts from an index seek on
 * (branch_id, id) and walks only the containment tree below (bounded by the depth
 * asked for) or above (the depth of the tree) the nodes it returns, their ports
 * (HAS_PORT) and the wires on those ports (seeks on (branch_id, source_handle) and
 * (branch_id, target_handle)): the cost follows the answer, not the branch.
 */
import { cypher, NamedQuery } from '../../../shared/neo4j/namedQuery';

export const MIN_SUBTREE_DEPTH = 1;
export const MAX_SUBTREE_DEPTH = 32;

/**
 * A node's containment chain from the top level down to itself: walk CONTAINS
 * upward from $n (one parent per node, so one path per length) to the ancestor
 * that has no parent.
 */
const CHAIN_OF = (n: string, alias: string) =>
  `CALL (${n}) {
     MATCH up = (top:GNode)-[:CONTAINS*0..]->(${n})
     WHERE NOT EXISTS { (:GNode)-[:CONTAINS]->(top) }
     RETURN [x IN nodes(up) | x.name] AS ${alias}
   }`;

const PORTS_OF = (n: string) => `[(${n})-[:HAS_PORT]->(pt:Port) | pt {.*}]`;

/**
 * Subtree of $nodeId to a fixed depth (§4.11). Variable-length bounds cannot be
 * parameters in Cypher, so there is one named query per allowed depth (1..32),
 * built once here from that fixed range, never from request input.
 * Each descendant carries the names on the walk below the root and whether it sits
 * at the last level with children still below (truncation).
 */
function buildSubtreeQuery(depth: number): NamedQuery {
  return cypher(
    `readSubtree${depth}`,
    `MATCH (root:GNode {branch_id: $branchId, id: $nodeId})
     ${CHAIN_OF('root', 'rootNames')}
     CALL (root) {
       MATCH walk = (root)-[:CONTAINS*1..${depth}]->(n:GNode)
       RETURN collect({
         node: n {.*},
         ports: ${PORTS_OF('n')},
         names: [x IN tail(nodes(walk)) | x.name],
         below: length(walk) = ${depth} AND EXISTS { (n)-[:CONTAINS]->(:GNode) }
       }) AS descendants
     }
     RETURN root {.*} AS root, ${PORTS_OF('root')} AS rootPorts, rootNames, descendants`,
  );
}

const SUBTREE_BY_DEPTH: readonly NamedQuery[] = Array.from({ length: MAX_SUBTREE_DEPTH }, (_, i) =>
  buildSubtreeQuery(i + 1),
);

/** The subtree query for a depth in 1..32. */
export function subtreeToDepth(depth: number): NamedQuery {
  const query = SUBTREE_BY_DEPTH[depth - 1];
  if (!Number.isInteger(depth) || !query)
    throw new RangeError(`subtree depth ${depth} is out of range`);
  return query;
}

/** Nodes by id with their ports and containment chains; missing ids are skipped. */
export const readNodesWithChains = cypher(
  'readNodesWithChains',
  `UNWIND $ids AS id
   MATCH (n:GNode {branch_id: $branchId, id: id})
   ${CHAIN_OF('n', 'names')}
   RETURN n {.*} AS node, ${PORTS_OF('n')} AS ports, names
   ORDER BY n.id`,
);

/** Direct children of $nodeId with their ports (§4.13). */
export const readChildren = cypher(
  'readChildren',
  `MATCH (:GNode {branch_id: $branchId, id: $nodeId})-[:CONTAINS]->(c:GNode)
   RETURN c {.*} AS node, ${PORTS_OF('c')} AS ports
   ORDER BY c.id`,
);

/** The wires on a set of ports, each once, reached through each handle it has there. */
const WIRES_ON_PORT = `CALL (p) {
     MATCH (e:Edge {branch_id: $branchId, source_handle: p.id}) RETURN e
     UNION ALL
     MATCH (e:Edge {branch_id: $branchId, target_handle: p.id}) RETURN e
   }`;

/** Derived endpoints: null when a handle is null or dangles (§2.12). */
const EDGE_ROW = `OPTIONAL MATCH (sp:Port {branch_id: $branchId, id: e.source_handle})
   OPTIONAL MATCH (tp:Port {branch_id: $branchId, id: e.target_handle})
   RETURN e.id AS id, e.source_handle AS source_handle, e.target_handle AS target_handle,
          sp.node_id AS source, tp.node_id AS target, inside
   ORDER BY id`;

/**
 * Every wire on a port of the nodes $ids (distinct ids), with `inside` = how many of
 * its two endpoints are among those nodes (1 or 2). A null or dangling handle is
 * never inside.
 */
export const readEdgesAtNodes = cypher(
  'readEdgesAtNodes',
  `UNWIND $ids AS id
   MATCH (:GNode {branch_id: $branchId, id: id})-[:HAS_PORT]->(p:Port)
   ${WIRES_ON_PORT}
   WITH e, count(*) AS inside
   ${EDGE_ROW}`,
);

/**
 * Wires of the boundary view (§4.13, definition in the OpenAPI description of
 * getBoundary): every wire on a port of the node itself, plus every wire with exactly
 * one endpoint among the node and its descendants (all levels).
 */
export const readPerimeterEdges = cypher(
  'readPerimeterEdges',
  `MATCH (b:GNode {branch_id: $branchId, id: $nodeId})
   WITH b, [(b)-[:HAS_PORT]->(own:Port) | own.id] AS own
   MATCH (b)-[:CONTAINS*0..]->(:GNode)-[:HAS_PORT]->(p:Port)
   ${WIRES_ON_PORT}
   WITH own, e, count(*) AS inside
   WHERE inside = 1 OR e.source_handle IN own OR e.target_handle IN own
   ${EDGE_ROW}`,
);
