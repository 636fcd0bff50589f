/**
 * Cypher of the scoped reads. Each read is one statement, run as one auto-commit
 * round trip, that also returns the caller's access row (checked in JS: branchGrant /
 * projectGrant) and the branch row the view was built from (VIEW_OF: the head, or
 * $at.version, checked in JS by viewResolver.ts). Every query starts from an index seek
 * on (branch_id, id) and walks only the containment tree below (bounded by the depth
 * asked for) or above the nodes it returns, their ports (by node_id) and the wires on
 * those ports (by handle, at the one end a port's channel allows: scopedReadFragments.ts
 * WIRES_ON_PORT): the cost follows the answer, not the branch. A discarded
 * branch has no nodes to read, whatever the purge has left so far.
 *
 * Walks up a chain or down below a boundary are unrolled to CHAIN_STEPS levels in the
 * statement; the rare longer walk is finished by the `...From` statements at the end
 * of this file, run at the same view (scopedLoader.ts), which cannot tear: a write
 * committed meanwhile is a later version.
 */
import { join } from 'node:path';
import { statementsIn } from '../../../shared/neo4j/statementFiles';
import type { NamedQuery } from '../../../shared/neo4j/namedQuery';
import { branchAccessCypher } from '../../branches';
import { VIEW_OF } from './scopedReadFragments';

const statement = statementsIn(join(__dirname, 'statements'));

export const MIN_SUBTREE_DEPTH = 1;
export const MAX_SUBTREE_DEPTH = 32;
export const MAX_SEARCH_QUERY_LENGTH = 200;
export const MAX_SEARCH_LIMIT = 50;
export const DEFAULT_SEARCH_LIMIT = 20;

/**
 * How each scoped read starts (the definition statementRules.spec.ts holds every one of
 * them to): a branch `b` with the caller's access row (its live project `p`, the
 * caller's membership `m`: the branches service's branchAccessCypher, read in the same
 * statement as the graph so a scoped read is one round trip; the branches service owns
 * the rule and checks the row, branchGrant) and its view (`view`), ready for a read.
 */
export const BRANCH_VIEW = `MATCH (b:Branch {id: $branchId}) WHERE b.deleted_at IS NULL
   ${branchAccessCypher()}
   WITH b, p, m, ${VIEW_OF('b')} AS view`;

/**
 * Subtree of $nodeId on branch $branchId to a fixed depth, in one statement with the
 * branch's access row (caller $userId). The walk is one unrolled step per level, so
 * there is one named query per allowed depth (1..32), built from that fixed range,
 * never from request input. Each descendant carries the names on the walk below the
 * root and whether it sits at the last level with children still below (truncation);
 * `edges` are the wires on the ports of the root and its returned descendants (those
 * ports read once, for the nodes and their wires), with the nodes at their ends sought
 * only for a wire with one end outside (`inside` = 1): readSubtree gives a wire with
 * both ends inside the nodes of the ports it read. With no such branch there is no
 * row; with no such node `root` is null.
 */
const buildSubtreeQuery = (depth: number) => statement(`readSubtree${depth}`);

/**
 * Neighborhood of $nodeId on branch $branchId in one statement with the branch's
 * access row (caller $userId): the node with its ports and chain, every wire on its
 * ports (`edges`, ordered by id), and the nodes at the other ends (`neighbors`,
 * ordered by id, with ports and chains). With no such branch there is no row; with no
 * such node `node` is null.
 */
export const readNeighborhoodOf = statement('readNeighborhoodOf');

/**
 * Boundary view of $nodeId on the main branch of project $projectId, in one statement
 * with the project's access row for the caller $userId: the node with its ports and
 * chain, its direct children (ordered by id) and the perimeter wires (`edges`, ordered
 * by id: those on the node's own ports plus those with exactly one endpoint among the
 * node and its descendants, the definition stated in the OpenAPI description of
 * getBoundary). The children's ports are read once, for the children and for the
 * perimeter; only the nodes further below are sought for theirs (`below` begins with
 * the children, as many as `children`, then the levels under them). With no such
 * project there is no row; with no such node `node` is null. Every branch has an
 * owner: `b.owner_id IS NOT NULL` lets the planner seek main through the
 * (project_id, owner_id) index instead of scanning every branch.
 */
export const readBoundaryOf = statement('readBoundaryOf');

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
export const readTopLevelOf = statement('readTopLevelOf');

/** readSubtree<depth> of each depth allowed, in order. */
export const SUBTREE_BY_DEPTH: readonly NamedQuery[] = Array.from(
  { length: MAX_SUBTREE_DEPTH },
  (_, i) => buildSubtreeQuery(i + 1),
);

/** The subtree query for a depth in 1..32. */
export function subtreeToDepth(depth: number): NamedQuery {
  const query = SUBTREE_BY_DEPTH[depth - 1];
  if (!Number.isInteger(depth) || !query)
    throw new RangeError(`subtree depth ${depth} is out of range`);
  return query;
}

/**
 * The nodes `$ids` in `$view` and their ancestors up to CHAIN_STEPS levels above them,
 * as `nodes`: each `{id, parent_id, name}`, read one level at a time for all of them,
 * so an ancestor several of them share is read once (the matches of a search sit under
 * a few boundaries). An id the view does not hold is left out; a node whose parent is
 * not among `nodes` is where the walk goes on.
 */
export const ancestorsFrom = statement('ancestorsFrom');

/** The ids below the nodes `$ids` in `$view`, CHAIN_STEPS levels down (`found`), and
 * those at the last level (`frontier`). */
export const descendantIdsFrom = statement('descendantIdsFrom');

/** The perimeter wires of a boundary (readBoundaryOf's `edges`) from the ids of the
 * boundary and all its descendants (`$ids`) and the ids of its own ports (`$own`). */
export const perimeterWiresOf = statement('perimeterWiresOf');
