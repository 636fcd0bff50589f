/**
 * Cypher reads of delta application, through the write view `$view` (view.ts): each
 * query touches only the entities a delta names and their immediate structure, by
 * index seeks on (branch_id, id), (branch_id, scope, name), (branch_id, parent_id),
 * (branch_id, node_id) or (branch_id, handle), once per line of the view: a batch
 * costs in proportion to the batch, not to the graph. Writes go through
 * recordWrites.ts (upsertStates, removeStates, placeNodes) only.
 */
import { cypher } from '../../../shared/neo4j/namedQuery';
import {
  optionalStateOf,
  stateOf,
  statesIn,
  statesWhere,
  statesWithIds,
  viewImport,
  viewImportAfter,
  wiresOnPort,
} from './visibility';

/**
 * Which of $ids are already used by a node, port or edge of the view, with the node a
 * port id belongs to (`portOwner`, null for a node or edge id).
 */
export const findUsedIds = cypher(
  'findUsedIds',
  `CALL () {
     ${statesWithIds('n', 'GNode', '$ids')}
     RETURN n.id AS id, null AS portOwner
     UNION
     ${statesWithIds('p', 'Port', '$ids')}
     RETURN p.id AS id, p.node_id AS portOwner
     UNION
     ${statesWithIds('e', 'Edge', '$ids')}
     RETURN e.id AS id, null AS portOwner
   }
   RETURN id, portOwner`,
);

/**
 * The node of port `pt` (a variable bound before, null when there is no port) as a
 * wire's checks read it, in view `V`: its kind is stored on the port (`node_kind`,
 * deltas/nodeState.ts portProps; a node's kind never changes), so the node is looked up,
 * as `owner`, only for a port stored before ports carried it (`owner` is null otherwise).
 * Read the node's id and kind with portNodeId and portNodeKind.
 */
export function portOwnerOf(pt: string, owner: string, V = '$view'): string {
  return optionalStateOf(
    owner,
    'GNode',
    `CASE WHEN ${pt}.node_kind IS NULL THEN ${pt}.node_id END`,
    V,
  );
}

/** The id of port `pt`'s node, with `owner` bound by portOwnerOf (null: no such node). */
export const portNodeId = (pt: string, owner: string) =>
  `CASE WHEN ${pt}.node_kind IS NULL THEN ${owner}.id ELSE ${pt}.node_id END`;

/** The kind of port `pt`'s node, with `owner` bound by portOwnerOf. */
export const portNodeKind = (pt: string, owner: string) =>
  `coalesce(${pt}.node_kind, ${owner}.kind)`;

/**
 * The wires of view `V` with a handle on one of the ports listed in `portIds` (seeks on
 * the handle indexes), each once, as `wire` maps (wiresOnNewPorts.ts WireRow): the
 * handles, and the channel and node kind at each end where a port of that id exists.
 */
export function wiresWithEnds(portIds: string, V = '$view'): string {
  const imported = viewImport(V);
  const and = viewImportAfter(V);
  return `CALL (${imported}) {
     ${statesIn('e', 'Edge', portIds, V, 'source_handle')}
     RETURN e
     UNION
     ${statesIn('e', 'Edge', portIds, V, 'target_handle')}
     RETURN e
   }
   CALL (e${and}) {
     ${optionalStateOf('sp', 'Port', 'e.source_handle', V)}
     ${portOwnerOf('sp', 'sn', V)}
     ${optionalStateOf('tp', 'Port', 'e.target_handle', V)}
     ${portOwnerOf('tp', 'tn', V)}
     RETURN sp, sn, tp, tn
   }
   WITH {id: e.id, source: e.source_handle, target: e.target_handle,
         sourceChannel: sp.channel, sourceKind: ${portNodeKind('sp', 'sn')},
         targetChannel: tp.channel, targetKind: ${portNodeKind('tp', 'tn')}} AS wire`;
}

/** wiresWithEnds of the ports $portIds in the view, in one row, ordered by id. */
export const findWiresOnPorts = cypher(
  'findWiresOnPorts',
  `${wiresWithEnds('$portIds')}
   WITH wire ORDER BY wire.id
   RETURN collect(wire) AS wires`,
);

/** A node's state in the view with its ports' states. */
export const loadNode = cypher(
  'loadNode',
  `${stateOf('n', 'GNode', '$id')}
   CALL (n) {
     ${statesWhere('p', 'Port', { node_id: 'n.id' })}
     RETURN collect(p {.*}) AS ports
   }
   RETURN n {.*} AS node, ports`,
);

export const findSiblingNamed = cypher(
  'findSiblingNamed',
  `${statesWhere('n', 'GNode', { scope: '$scope', name: '$name' })}
     AND NOT n.id IN $excludeIds
   RETURN n.id AS id LIMIT 1`,
);

/** Which of $names are taken in a scope by nodes other than $excludeIds. */
export const findNamesTaken = cypher(
  'findNamesTaken',
  `UNWIND $names AS name
   ${statesWhere('n', 'GNode', { scope: '$scope', name: 'name' })}
     AND NOT n.id IN $excludeIds
   RETURN DISTINCT name`,
);

/** Direct children of a node (a seek on parent_id, never a scan of the scope). */
export const childrenOf = cypher(
  'childrenOf',
  `${statesWhere('c', 'GNode', { parent_id: '$id' })}
   RETURN c.id AS id, c.name AS name`,
);

/**
 * One level of the subtrees below $ids: the children of those nodes, and the ports
 * of those nodes (a delete walks down level by level, at most the nesting depth).
 */
export const levelBelow = cypher(
  'levelBelow',
  `CALL () {
     UNWIND $ids AS pid
     ${statesWhere('c', 'GNode', { parent_id: 'pid' })}
     RETURN collect(c.id) AS childIds
   }
   CALL () {
     UNWIND $ids AS nid
     ${statesWhere('p', 'Port', { node_id: 'nid' })}
     RETURN collect(p.id) AS portIds
   }
   RETURN childIds, portIds`,
);

/**
 * What removing nodes $nodeIds and ports $portIds takes away in the view: those of
 * them it sees, and every wire on those ports (by handle), each once.
 */
export const findRemovals = cypher(
  'findRemovals',
  `CALL () {
     UNWIND $nodeIds AS nid
     ${stateOf('n', 'GNode', 'nid')}
     RETURN collect(DISTINCT n.id) AS nodeIds
   }
   CALL () {
     UNWIND $portIds AS pid
     ${stateOf('p', 'Port', 'pid')}
     RETURN collect(DISTINCT p.id) AS portIds
   }
   CALL () {
     UNWIND $portIds AS pid
     CALL (pid) {
       ${wiresOnPort('e', 'pid', 'e')}
     }
     RETURN collect(DISTINCT e.id) AS edgeIds
   }
   RETURN nodeIds, portIds, edgeIds`,
);

/** An edge's state in the view. */
export const findEdge = cypher(
  'findEdge',
  `${stateOf('e', 'Edge', '$id')}
   RETURN e.id AS id`,
);

/** How many levels of ancestors one ancestorLevelsOf walk reads (a deeper chain loops). */
export const CHAIN_STEPS = 3;

/**
 * The nodes of the list `idsExpr` that exist in view `V` (`parents`) and up to
 * CHAIN_STEPS levels of their ancestors (`ancestors`), as {id, kind, parent_id} maps:
 * containment is the property join parent_id, so an ancestor walk is unrolled levels,
 * each one seek per distinct id (statesWithIds), so nodes that share ancestors read them
 * once (deltas/ancestry.ts firstChainSteps makes each node's chain of them, and
 * continues a deeper one). The body of a `CALL` subquery, before its `RETURN`.
 */
export function ancestorLevelsOf(idsExpr: string, V = '$view'): string {
  const and = viewImportAfter(V);
  const level = (out: string, ids: string, imports: string) => `CALL (${imports}) {
       ${ids}
       ${statesWithIds('n', 'GNode', 'ids', V)}
       RETURN collect(n {.id, .kind, .parent_id}) AS ${out}
     }`;
  const levels = [level('l0', `WITH ${idsExpr} AS ids`, viewImport(V))];
  for (let i = 1; i <= CHAIN_STEPS; i += 1)
    levels.push(
      level(
        `l${i}`,
        `UNWIND l${i - 1} AS below
       WITH collect(DISTINCT below.parent_id) AS ids`,
        `l${i - 1}${and}`,
      ),
    );
  const above = Array.from({ length: CHAIN_STEPS }, (_, i) => `l${i + 1}`).join(' + ');
  return `${levels.join('\n     ')}
     WITH ${viewImport(V) ? `${V}, ` : ''}l0 AS parents, ${above} AS ancestors`;
}

/** ancestorLevelsOf the nodes $ids in the view, in one row. */
export const ancestorChains = cypher(
  'ancestorChains',
  `${ancestorLevelsOf('$ids')}
   RETURN parents, ancestors`,
);
