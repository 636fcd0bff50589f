/**
 * Cypher of the scoped reads. Each read is one statement, run as one auto-commit
 * round trip, that also returns the caller's access row (checked in JS: branchGrant /
 * projectGrant) and the branch row the view was built from (VIEW_OF: the head, or
 * $version, checked in JS by viewResolver.ts). Every query starts from an index seek
 * on (branch_id, id) and walks only the containment tree below (bounded by the depth
 * asked for) or above the nodes it returns, their ports (by node_id) and the wires on
 * those ports (by handle): the cost follows the answer, not the branch. A discarded
 * branch has no nodes to read, whatever the purge has left so far.
 *
 * Walks up a chain or down below a boundary are unrolled to CHAIN_STEPS levels in the
 * statement; the rare longer walk is finished by the `...From` statements at the end
 * of this file, run at the same view (scopedLoader.ts), which cannot tear: a write
 * committed meanwhile is a later version.
 */
import { cypher, NamedQuery, pinnedCypher } from '../../../shared/neo4j/namedQuery';
import { branchAccessCypher } from '../../branches';
import {
  chainOf,
  descendantIdsOf,
  descendantsOf,
  EDGES_AT,
  HAS_CHILD,
  NODE_AT,
  NODE_MAP,
  PORTS_OF,
  VIEW_OF,
  WIRES_ON_PORT,
  COLLECT_EDGE_ROWS,
} from './scopedReadFragments';
import { optionalStateOf, statesWhere } from './visibility';

/**
 * The caller's access row of branch `b` (its live project `p`, the caller's membership
 * `m`), read in the same statement as the graph so a scoped read is one round trip.
 * The clause comes from the branches service, which owns the visibility rule and
 * checks the row (branchGrant); these queries only place it after binding `b`.
 */
const BRANCH_ACCESS = branchAccessCypher();

export const MIN_SUBTREE_DEPTH = 1;
export const MAX_SUBTREE_DEPTH = 32;
export const MAX_SEARCH_QUERY_LENGTH = 200;
export const MAX_SEARCH_LIMIT = 50;
export const DEFAULT_SEARCH_LIMIT = 20;

/** A branch `b` with its access row and its view (`view`), ready for a read. */
const BRANCH_VIEW = `MATCH (b:Branch {id: $branchId}) WHERE b.deleted_at IS NULL
   ${BRANCH_ACCESS}
   WITH b, p, m, ${VIEW_OF('b')} AS view`;

/**
 * Subtree of $nodeId on branch $branchId to a fixed depth, in one statement with the
 * branch's access row (caller $userId). The walk is one unrolled step per level, so
 * there is one named query per allowed depth (1..32), built from that fixed range,
 * never from request input. Each descendant carries the names on the walk below the
 * root and whether it sits at the last level with children still below (truncation);
 * `edges` are the wires on the ports of the root and its returned descendants. With
 * no such branch there is no row; with no such node `root` is null.
 */
function buildSubtreeQuery(depth: number): NamedQuery {
  return cypher(
    `readSubtree${depth}`,
    `${BRANCH_VIEW}
     OPTIONAL CALL (b, view) {
       ${NODE_AT('root', '$nodeId')} AND b.status <> 'discarded'
       ${chainOf('root', 'rootNames')}
       ${descendantsOf('root', 'found', depth)}
       CALL (found, view) {
         UNWIND found AS x
         WITH x.n AS n, x.names AS names, x.level AS level, view
         RETURN collect({
           node: ${NODE_MAP('n')},
           ports: ${PORTS_OF('n')},
           names: names,
           below: level = ${depth} AND ${HAS_CHILD('n')}
         }) AS descendants
       }
       WITH root, rootNames, rootNamesRest, descendants,
            [root.id] + [d IN descendants | d.node.id] AS ids, view
       ${EDGES_AT('ids')}
       RETURN ${NODE_MAP('root')} AS root, ${PORTS_OF('root')} AS rootPorts, rootNames, rootNamesRest,
              descendants, edges
     }
     RETURN b {.*} AS branch, p {.*} AS project, m.role AS role,
            root, rootPorts, rootNames, rootNamesRest, descendants, edges`,
  );
}

/**
 * Neighborhood of $nodeId on branch $branchId in one statement with the branch's
 * access row (caller $userId): the node with its ports and chain, every wire on its
 * ports (`edges`, ordered by id), and the nodes at the other ends (`neighbors`,
 * ordered by id, with ports and chains). With no such branch there is no row; with no
 * such node `node` is null.
 */
export const readNeighborhoodOf = pinnedCypher(
  'readNeighborhoodOf',
  `${BRANCH_VIEW}
     OPTIONAL CALL (b, view) {
       ${NODE_AT('n', '$nodeId')} AND b.status <> 'discarded'
       ${chainOf('n', 'names')}
       WITH n, names, namesRest, [n.id] AS ids, view
       ${EDGES_AT('ids')}
       CALL (n, edges, view) {
         UNWIND [x IN edges | x.source] + [x IN edges | x.target] AS otherId
         WITH DISTINCT otherId, n, view WHERE otherId IS NOT NULL AND otherId <> n.id
         ${NODE_AT('nb', 'otherId')}
         ${chainOf('nb', 'nbNames')}
         WITH nb, nbNames, nbNamesRest, view ORDER BY nb.id
         RETURN collect({node: ${NODE_MAP('nb')}, ports: ${PORTS_OF('nb')}, names: nbNames,
                         rest: nbNamesRest}) AS neighbors
       }
       RETURN ${NODE_MAP('n')} AS node, ${PORTS_OF('n')} AS ports, names, namesRest, edges, neighbors
     }
     RETURN b {.*} AS branch, p {.*} AS project, m.role AS role,
            node, ports, names, namesRest, edges, neighbors`,
);

/**
 * Boundary view of $nodeId on the main branch of project $projectId, in one statement
 * with the project's access row for the caller $userId: the node with its ports and
 * chain, its direct children (ordered by id) and the perimeter wires (`edges`, ordered
 * by id: those on the node's own ports plus those with exactly one endpoint among the
 * node and its descendants, the definition stated in the OpenAPI description of
 * getBoundary). With no such project there is no row; with no such node `node` is
 * null. Every branch has an owner: `b.owner_id IS NOT NULL` lets the planner seek main
 * through the (project_id, owner_id) index instead of scanning every branch.
 */
export const readBoundaryOf = pinnedCypher(
  'readBoundaryOf',
  `MATCH (pr:Project {id: $projectId}) WHERE pr.deleted_at IS NULL
     OPTIONAL MATCH (:User {id: $userId})-[m:MEMBER_OF]->(pr)
     OPTIONAL MATCH (b:Branch {project_id: $projectId, is_main: true})
     WHERE b.deleted_at IS NULL AND b.owner_id IS NOT NULL
     WITH pr, m, b, ${VIEW_OF('b')} AS view
     OPTIONAL CALL (b, view) {
       ${NODE_AT('bn', '$nodeId')} AND b IS NOT NULL
       ${chainOf('bn', 'names')}
       CALL (bn, view) {
         ${statesWhere('c', 'GNode', { parent_id: 'bn.id' }, 'view')}
         WITH c, view ORDER BY c.id
         RETURN collect({node: ${NODE_MAP('c')}, ports: ${PORTS_OF('c')}}) AS children
       }
       WITH bn, names, namesRest, children, [bn.id] AS start, view
       ${descendantIdsOf('start', 'below')}
       CALL (bn, below, view) {
         WITH bn, view, ${PORTS_OF('bn')} AS ownPorts, [bn.id] + below AS ids
         WITH view, [x IN ownPorts | x.id] AS own, ids
         UNWIND ids AS id
         ${statesWhere('p', 'Port', { node_id: 'id' }, 'view')}
         ${WIRES_ON_PORT}
         WITH own, view, e, count(*) AS inside
         WHERE inside = 1 OR e.source_handle IN own OR e.target_handle IN own
         ${COLLECT_EDGE_ROWS}
       }
       RETURN ${NODE_MAP('bn')} AS node, ${PORTS_OF('bn')} AS ports, names, namesRest, children,
              below, belowFrontier, edges
     }
     RETURN pr {.*} AS project, m.role AS role, b {.*} AS branch,
            node, ports, names, namesRest, children, below, belowFrontier, edges`,
);

/**
 * Top level of branch $branchId (getTopLevel) in one statement with the branch's
 * access row (caller $userId): the nodes without a parent, with their ports, and the
 * wires on those ports (`edges`, ordered by id, each with `inside` = how many
 * endpoints are top-level nodes). `n.name IS NOT NULL` (every node has a name) lets
 * the planner seek the (branch_id, scope, name) index on scope = '' instead of reading
 * every node of the branch. The cost follows the top level, not the branch: a viewer
 * opens a large graph here and reads a boundary's inside only when it is expanded.
 * With no such branch there is no row.
 */
export const readTopLevelOf = pinnedCypher(
  'readTopLevelOf',
  `${BRANCH_VIEW}
   OPTIONAL CALL (b, view) {
     CALL (b, view) {
       ${statesWhere('n', 'GNode', { scope: "''" }, 'view')}
         AND n.name IS NOT NULL AND b.status <> 'discarded'
       WITH n, view ORDER BY n.id
       RETURN collect({node: ${NODE_MAP('n')}, ports: ${PORTS_OF('n')}}) AS top
     }
     WITH top, [t IN top | t.node.id] AS ids, view
     ${EDGES_AT('ids')}
     RETURN top, edges
   }
   RETURN b {.*} AS branch, p {.*} AS project, m.role AS role, top, edges`,
);

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
 * The chains above the nodes `$ids` in `$view`, each CHAIN_STEPS levels up from the
 * node itself (included): `chain` of names, or of ids with `$byId`, top level first,
 * and `rest`, the next ancestor's id when the chain goes on.
 */
export const chainsFrom = cypher(
  'chainsFrom',
  `WITH $view AS view
   UNWIND $ids AS start
   CALL (start, view) {
     ${optionalStateOf('n', 'GNode', 'start', 'view')}
     ${chainOf('n', 'chain', { value: 'CASE WHEN $byId THEN x.id ELSE x.name END' })}
     RETURN chain, chainRest AS rest
   }
   RETURN start, chain, rest`,
);

/** The ids below the nodes `$ids` in `$view`, CHAIN_STEPS levels down (`found`), and
 * those at the last level (`frontier`). */
export const descendantIdsFrom = cypher(
  'descendantIdsFrom',
  `WITH $view AS view, $ids AS start
   ${descendantIdsOf('start', 'found')}
   RETURN found, foundFrontier AS frontier`,
);

/** The perimeter wires of a boundary (readBoundaryOf's `edges`) from the ids of the
 * boundary and all its descendants (`$ids`) and the ids of its own ports (`$own`). */
export const perimeterWiresOf = cypher(
  'perimeterWiresOf',
  `WITH $view AS view, $own AS own
   UNWIND $ids AS id
   ${statesWhere('p', 'Port', { node_id: 'id' }, 'view')}
   ${WIRES_ON_PORT}
   WITH own, view, e, count(*) AS inside
   WHERE inside = 1 OR e.source_handle IN own OR e.target_handle IN own
   ${COLLECT_EDGE_ROWS}`,
);
