/**
 * Cypher reads of delta application, through the write view `$view` (view.ts): each
 * query touches only the entities a delta names and their immediate structure, by
 * index seeks on (branch_id, id), (branch_id, scope, name), (branch_id, parent_id),
 * (branch_id, node_id) or (branch_id, handle), once per line of the view: a batch
 * costs in proportion to the batch, not to the graph. Writes go through
 * recordWrites.ts (upsertStates, removeStates, placeNodes) only. Each statement's text
 * is kept whole in statements/<name>.cypher.
 */
import { join } from 'node:path';
import { statementsIn } from '../../../shared/neo4j/statementFiles';

const statement = statementsIn(join(__dirname, 'statements'));

/**
 * Which of $ids are already used by a node, port or edge of the view, with the node a
 * port id belongs to (`portOwner`, null for a node or edge id).
 */
export const findUsedIds = statement('findUsedIds');

/**
 * The wires of the view with a handle on one of the ports $portIds (seeks on the handle
 * indexes), each once, in one row ordered by id, as `wire` maps (wiresOnNewPorts.ts
 * WireRow): the handles, and the channel and node kind at each end where a port of that
 * id exists. A port's node kind is stored on the port (`node_kind`, deltas/nodeState.ts
 * portProps; a node's kind never changes), so the node is looked up only for a port
 * stored before ports carried it. prefetchAddRun reads the same of its new ports.
 */
export const findWiresOnPorts = statement('findWiresOnPorts');

/** A node's state in the view with its ports' states. */
export const loadNode = statement('loadNode');

/** The first node other than $excludeIds named $name in scope $scope. */
export const findSiblingNamed = statement('findSiblingNamed');

/** Which of $names are taken in a scope by nodes other than $excludeIds. */
export const findNamesTaken = statement('findNamesTaken');

/** Direct children of a node (a seek on parent_id, never a scan of the scope). */
export const childrenOf = statement('childrenOf');

/**
 * One level of the subtrees below $ids: the children of those nodes, and the ports
 * of those nodes (a delete walks down level by level, at most the nesting depth).
 */
export const levelBelow = statement('levelBelow');

/**
 * What removing nodes $nodeIds and ports $portIds takes away in the view: those of
 * them it sees, and every wire on those ports (by handle), each once.
 */
export const findRemovals = statement('findRemovals');

/** An edge's state in the view. */
export const findEdge = statement('findEdge');

/**
 * How many levels of ancestors one walk reads (a deeper chain loops): ancestorChains,
 * prefetchAddRun and lockAndPrefetchAddRun unroll levels l0 (the nodes asked of) to
 * l<CHAIN_STEPS> (statementRules.spec.ts holds them to it).
 */
export const CHAIN_STEPS = 3;

/**
 * The nodes $ids that exist in the view (`parents`) and up to CHAIN_STEPS levels of
 * their ancestors (`ancestors`), as {id, kind, parent_id} maps, in one row:
 * containment is the property join parent_id, so an ancestor walk is unrolled levels,
 * each one seek per distinct id, so nodes that share ancestors read them once
 * (deltas/ancestry.ts firstChainSteps makes each node's chain of them, and continues a
 * deeper one).
 */
export const ancestorChains = statement('ancestorChains');
