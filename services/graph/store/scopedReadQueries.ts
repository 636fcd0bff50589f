/**
 * Cypher of the scoped reads. Each read is one statement, run as one
 * auto-commit round trip, that also returns the caller's access row (checked in
 * JS: branchGrant / projectGrant). Every query starts from an index seek on
 * (branch_id, id) and walks only the containment tree below (bounded by the depth
 * asked for) or above (the depth of the tree) the nodes it returns, their ports
 * (HAS_PORT) and the wires on those ports (seeks on (branch_id, source_handle) and
 * (branch_id, target_handle)): the cost follows the answer, not the branch. A
 * discarded branch has no nodes to read, whatever the purge has left so far.
 */
import { cypher, NamedQuery } from '../../../shared/neo4j/namedQuery';
import { branchAccessCypher } from '../../branches';

/**
 * The caller's access row of branch `b` (its live project `p`, the caller's membership
 * `m`), read in the same statement as the graph so a scoped read is one round trip.
 * The clause comes from the branches service, which owns the visibility rule and
 * checks the row (branchGrant); these queries only place it after binding `b`.
 */
const BRANCH_ACCESS = branchAccessCypher();

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
 * The wires on port `p`, each once, reached through each handle it has there.
 * `branch` is the branch id: the parameter $branchId, or a variable of the query.
 */
const wiresOnPort = (
  branch = '$branchId',
) => `CALL (p${branch.startsWith('$') ? '' : `, ${branch}`}) {
     MATCH (e:Edge {branch_id: ${branch}, source_handle: p.id}) RETURN e
     UNION ALL
     MATCH (e:Edge {branch_id: ${branch}, target_handle: p.id}) RETURN e
   }`;

const WIRES_ON_PORT = wiresOnPort();

/** Wire rows collected as the list `edges`, ordered by id; `source`/`target` are the
 * derived endpoints (null when a handle is null or dangles). */
const collectEdgeRows = (
  branch = '$branchId',
) => `OPTIONAL MATCH (sp:Port {branch_id: ${branch}, id: e.source_handle})
     OPTIONAL MATCH (tp:Port {branch_id: ${branch}, id: e.target_handle})
     WITH e, inside, sp, tp ORDER BY e.id
     RETURN collect({id: e.id, source_handle: e.source_handle, target_handle: e.target_handle,
                     source: sp.node_id, target: tp.node_id, inside: inside}) AS edges`;

/**
 * The wires on the ports of the nodes in the list variable `ids`, as the list
 * `edges` ordered by id, each with `inside` = how many of its endpoints are among
 * those nodes (the one-statement form of readEdgesAtNodes).
 */
const EDGES_AT = (ids: string) => `CALL (${ids}) {
     UNWIND ${ids} AS id
     MATCH (:GNode {branch_id: $branchId, id: id})-[:HAS_PORT]->(p:Port)
     ${WIRES_ON_PORT}
     WITH e, count(*) AS inside
     ${collectEdgeRows()}
   }`;

/**
 * Subtree of $nodeId on branch $branchId to a fixed depth, in one statement
 * with the branch's access row (BRANCH_ACCESS, for the caller $userId): one round
 * trip per read. Variable-length bounds cannot be parameters in Cypher, so there is
 * one named query per allowed depth (1..32), built once here from that fixed range,
 * never from request input. Each descendant carries the names on the walk below the
 * root and whether it sits at the last level with children still below
 * (truncation); `edges` are the wires on the ports of the root and its returned
 * descendants. With no such branch there is no row; with no such node `root` is null.
 */
function buildSubtreeQuery(depth: number): NamedQuery {
  return cypher(
    `readSubtree${depth}`,
    `MATCH (b:Branch {id: $branchId}) WHERE b.deleted_at IS NULL
     ${BRANCH_ACCESS}
     OPTIONAL CALL (b) {
       MATCH (root:GNode {branch_id: $branchId, id: $nodeId}) WHERE b.status <> 'discarded'

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
       WITH root, rootNames, descendants, [root.id] + [d IN descendants | d.node.id] AS ids
       ${EDGES_AT('ids')}
       RETURN root {.*} AS root, ${PORTS_OF('root')} AS rootPorts, rootNames, descendants, edges
     }
     RETURN b {.*} AS branch, p {.*} AS project, m.role AS role,
            root, rootPorts, rootNames, descendants, edges`,
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

/**
 * Neighborhood of $nodeId on branch $branchId in one statement with the
 * branch's access row (BRANCH_ACCESS, caller $userId): the node with its ports and
 * chain, every wire on its ports (`edges`, ordered by id), and the nodes at the
 * other ends (`neighbors`, ordered by id, with ports and chains). With no such
 * branch there is no row; with no such node `node` is null.
 */
export const readNeighborhoodOf = cypher(
  'readNeighborhoodOf',
  `MATCH (b:Branch {id: $branchId}) WHERE b.deleted_at IS NULL
   ${BRANCH_ACCESS}
   OPTIONAL CALL (b) {
     MATCH (n:GNode {branch_id: $branchId, id: $nodeId}) WHERE b.status <> 'discarded'

     ${CHAIN_OF('n', 'names')}
     WITH n, names, [n.id] AS ids
     ${EDGES_AT('ids')}
     CALL (n, edges) {
       UNWIND [x IN edges | x.source] + [x IN edges | x.target] AS otherId
       WITH DISTINCT otherId WHERE otherId IS NOT NULL AND otherId <> n.id
       MATCH (nb:GNode {branch_id: $branchId, id: otherId})
       ${CHAIN_OF('nb', 'nbNames')}
       WITH nb, nbNames ORDER BY nb.id
       RETURN collect({node: nb {.*}, ports: ${PORTS_OF('nb')}, names: nbNames}) AS neighbors
     }
     RETURN n {.*} AS node, ${PORTS_OF('n')} AS ports, names, edges, neighbors
   }
   RETURN b {.*} AS branch, p {.*} AS project, m.role AS role,
          node, ports, names, edges, neighbors`,
);

/**
 * Boundary view of $nodeId on the main branch of project $projectId, in one
 * statement with the project's access row for the caller $userId: the node with its
 * ports and chain, its direct children (ordered by id) and the perimeter wires
 * (`edges`, ordered by id: those on the node's own ports plus those with exactly one
 * endpoint among the node and its descendants, the definition stated in the OpenAPI
 * description of getBoundary). With no such project there is no row; with no such
 * node `node` is null. Every branch has an owner: `b.owner_id IS NOT NULL` lets the
 * planner seek main through the (project_id, owner_id) index instead of scanning
 * every branch of every project.
 */
export const readBoundaryOf = cypher(
  'readBoundaryOf',
  `MATCH (pr:Project {id: $projectId}) WHERE pr.deleted_at IS NULL
   OPTIONAL MATCH (:User {id: $userId})-[m:MEMBER_OF]->(pr)
   OPTIONAL MATCH (b:Branch {project_id: $projectId, is_main: true})
   WHERE b.deleted_at IS NULL AND b.owner_id IS NOT NULL
   WITH pr, m, b, b.id AS bid
   OPTIONAL CALL (bid) {
     MATCH (bn:GNode {branch_id: bid, id: $nodeId})
     ${CHAIN_OF('bn', 'names')}
     CALL (bn) {
       MATCH (bn)-[:CONTAINS]->(c:GNode)
       WITH c ORDER BY c.id
       RETURN collect({node: c {.*}, ports: ${PORTS_OF('c')}}) AS children
     }
     CALL (bn, bid) {
       WITH bn, bid, [(bn)-[:HAS_PORT]->(own:Port) | own.id] AS own
       MATCH (bn)-[:CONTAINS*0..]->(:GNode)-[:HAS_PORT]->(p:Port)
       ${wiresOnPort('bid')}
       WITH own, bid, e, count(*) AS inside
       WHERE inside = 1 OR e.source_handle IN own OR e.target_handle IN own
       ${collectEdgeRows('bid')}
     }
     RETURN bn {.*} AS node, ${PORTS_OF('bn')} AS ports, names, children, edges
   }
   RETURN pr {.*} AS project, m.role AS role, b {.*} AS branch,
          node, ports, names, children, edges`,
);

/**
 * Top level of branch $branchId (getTopLevel) in one statement with the branch's
 * access row (BRANCH_ACCESS, caller $userId): the nodes without a parent, with their
 * ports, and the wires on those ports (`edges`, ordered by id, each with `inside` =
 * how many endpoints are top-level nodes). `n.name IS NOT NULL` (every node has a
 * name) lets the planner seek the (branch_id, scope, name) index on scope = ''
 * instead of reading every node of the branch. The cost follows the top level, not the branch: a viewer opens a large
 * graph here and reads a boundary's inside only when it is expanded. With no such
 * branch there is no row.
 */
export const readTopLevelOf = cypher(
  'readTopLevelOf',
  `MATCH (b:Branch {id: $branchId}) WHERE b.deleted_at IS NULL
   ${BRANCH_ACCESS}
   OPTIONAL CALL (b) {
     MATCH (n:GNode {branch_id: $branchId, scope: ''})
     WHERE n.name IS NOT NULL AND b.status <> 'discarded'
     WITH n ORDER BY n.id
     WITH collect({node: n {.*}, ports: ${PORTS_OF('n')}}) AS top
     WITH top, [t IN top | t.node.id] AS ids
     ${EDGES_AT('ids')}
     RETURN top, edges
   }
   RETURN b {.*} AS branch, p {.*} AS project, m.role AS role, top, edges`,
);

export const MAX_SEARCH_QUERY_LENGTH = 200;
export const MAX_SEARCH_LIMIT = 50;
export const DEFAULT_SEARCH_LIMIT = 20;

/**
 * Name search on branch $branchId (searchNodes) in one statement with the branch's
 * access row (caller $userId): the nodes whose name contains $q, compared in lower
 * case ($q arrives lower-cased), names starting with $q first, then by name and id,
 * at most $limit + 1 rows (the extra row only tells the caller the answer was cut).
 * Each row carries its ancestors' ids from the top level down (`path`). The scan
 * starts from the (branch_id) index: a node found deep inside an unopened boundary is
 * found without reading the boundaries above it. With no such branch there is no row.
 */
export const searchNodesOf = cypher(
  'searchNodesOf',
  `MATCH (b:Branch {id: $branchId}) WHERE b.deleted_at IS NULL
   ${BRANCH_ACCESS}
   OPTIONAL CALL (b) {
     MATCH (n:GNode {branch_id: $branchId})
     WHERE b.status <> 'discarded' AND toLower(n.name) CONTAINS $q
     WITH n, CASE WHEN toLower(n.name) STARTS WITH $q THEN 0 ELSE 1 END AS rank
     ORDER BY rank, n.name, n.id
     LIMIT toInteger($limit) + 1
     CALL (n) {
       MATCH up = (top:GNode)-[:CONTAINS*0..]->(n)
       WHERE NOT EXISTS { (:GNode)-[:CONTAINS]->(top) }
       RETURN [x IN nodes(up)[0..-1] | x.id] AS path
     }
     RETURN collect({id: n.id, name: n.name, kind: n.kind, parent_id: n.parent_id, path: path}) AS found
   }
   RETURN b {.*} AS branch, p {.*} AS project, m.role AS role, found`,
);
