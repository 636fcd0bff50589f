/**
 * Cypher of delta application. Each query touches only the entities a
 * delta names and their immediate structure, by index seek on (branch_id, id),
 * (branch_id, scope, name) or (branch_id, handle): a batch costs in proportion to
 * the batch, not to the branch.
 */
import { cypher } from '../../../shared/neo4j/namedQuery';

/** Which of $ids are already used by a node, port or edge of the branch. */
export const findUsedIds = cypher(
  'findUsedIds',
  `UNWIND $ids AS id
   CALL (id) {
     OPTIONAL MATCH (n:GNode {branch_id: $branchId, id: id})
     OPTIONAL MATCH (p:Port {branch_id: $branchId, id: id})
     OPTIONAL MATCH (e:Edge {branch_id: $branchId, id: id})
     RETURN n IS NOT NULL OR e IS NOT NULL AS nodeOrEdge, p.node_id AS portOwner
   }
   WITH id, nodeOrEdge, portOwner WHERE nodeOrEdge OR portOwner IS NOT NULL
   RETURN id, portOwner`,
);

/**
 * The wires whose source or target handle is one of $portIds (seeks on the handle
 * indexes), each once, with the channel and node kind at both ends where a port
 * of that id exists (for wiresOnNewPorts.ts).
 */
export const WIRES_ON_PORTS = `UNWIND $portIds AS pid
   CALL (pid) {
     MATCH (e:Edge {branch_id: $branchId, source_handle: pid}) RETURN e
     UNION
     MATCH (e:Edge {branch_id: $branchId, target_handle: pid}) RETURN e
   }
   WITH DISTINCT e
   OPTIONAL MATCH (sn:GNode)-[:HAS_PORT]->(sp:Port {branch_id: $branchId, id: e.source_handle})
   OPTIONAL MATCH (tn:GNode)-[:HAS_PORT]->(tp:Port {branch_id: $branchId, id: e.target_handle})
   RETURN e.id AS id, e.source_handle AS source, e.target_handle AS target,
          sp.channel AS sourceChannel, sn.kind AS sourceKind,
          tp.channel AS targetChannel, tn.kind AS targetKind
   ORDER BY e.id`;

export const findWiresOnPorts = cypher('findWiresOnPorts', WIRES_ON_PORTS);

export const loadNode = cypher(
  'loadNode',
  `MATCH (n:GNode {branch_id: $branchId, id: $id})
   OPTIONAL MATCH (n)-[:HAS_PORT]->(p:Port)
   RETURN n {.*} AS node, collect(p {.*}) AS ports`,
);

export const findSiblingNamed = cypher(
  'findSiblingNamed',
  `MATCH (n:GNode {branch_id: $branchId, scope: $scope, name: $name})
   WHERE NOT n.id IN $excludeIds
   RETURN n.id AS id LIMIT 1`,
);

export const updateNodeProps = cypher(
  'updateNodeProps',
  `MATCH (n:GNode {branch_id: $branchId, id: $id})
   SET n += $props
   RETURN n.id AS id`,
);

/** Upserts ports of a node, matched by id (removed ports go through deleteNodesAndPorts). */
export const upsertPorts = cypher(
  'upsertPorts',
  `MATCH (n:GNode {branch_id: $branchId, id: $id})
   UNWIND $ports AS port
   MERGE (p:Port {branch_id: $branchId, id: port.id})
   ON CREATE SET p = port
   ON MATCH SET p += port
   MERGE (n)-[:HAS_PORT]->(p)
   RETURN count(p) AS upserted`,
);

/** Ids of a node's subtree (itself included) and of their ports. */
export const collectSubtree = cypher(
  'collectSubtree',
  `MATCH (root:GNode {branch_id: $branchId, id: $id})
   MATCH (root)-[:CONTAINS*0..]->(n:GNode)
   OPTIONAL MATCH (n)-[:HAS_PORT]->(p:Port)
   RETURN collect(DISTINCT n.id) AS nodeIds, collect(p.id) AS portIds`,
);

/**
 * Deletes nodes, their ports, and every wire touching those ports; returns how
 * many nodes and wires went (a wire between two deleted ports is counted once).
 */
export const deleteNodesAndPorts = cypher(
  'deleteNodesAndPorts',
  `CALL () {
     UNWIND $portIds AS pid
     MATCH (e:Edge {branch_id: $branchId, source_handle: pid})
     DELETE e
     RETURN count(e) AS outgoing
   }
   CALL () {
     UNWIND $portIds AS pid
     MATCH (e:Edge {branch_id: $branchId, target_handle: pid})
     DELETE e
     RETURN count(e) AS incoming
   }
   CALL () {
     UNWIND $portIds AS pid
     MATCH (p:Port {branch_id: $branchId, id: pid})
     DETACH DELETE p
   }
   CALL () {
     UNWIND $nodeIds AS nid
     MATCH (n:GNode {branch_id: $branchId, id: nid})
     DETACH DELETE n
     RETURN count(n) AS nodesDeleted
   }
   RETURN outgoing + incoming AS edgesDeleted, nodesDeleted`,
);

/**
 * Nesting around a node about to move under $parentId: the parent's depth (1 = top
 * level) and how many levels the node's subtree reaches below it (0 = a leaf).
 */
export const nestingOfMove = cypher(
  'nestingOfMove',
  `MATCH (n:GNode {branch_id: $branchId, id: $nodeId})
   OPTIONAL MATCH (p:GNode {branch_id: $branchId, id: $parentId})
   WITH n, p,
        CASE WHEN p IS NULL THEN 0
             ELSE COUNT { MATCH (:GNode)-[:CONTAINS*1..]->(p) } + 1 END AS parentDepth
   OPTIONAL MATCH path = (n)-[:CONTAINS*1..]->(:GNode)
   RETURN parentDepth, coalesce(max(length(path)), 0) AS height`,
);

/** Whether $nodeId is $parentId or one of its ancestors (a reparent would make a cycle). */
export const isAncestorOrSelf = cypher(
  'isAncestorOrSelf',
  `MATCH (p:GNode {branch_id: $branchId, id: $parentId})
   MATCH (a:GNode)-[:CONTAINS*0..]->(p)
   WHERE a.id = $nodeId
   RETURN a.id AS id LIMIT 1`,
);

/**
 * Replaces the containment link into node `n` by one from its parent (n.parent_id),
 * none for a top-level node: containment always follows parent_id.
 */
const LINK_TO_PARENT = `OPTIONAL MATCH (:GNode)-[old:CONTAINS]->(n)
   DELETE old
   WITH DISTINCT n
   OPTIONAL MATCH (parent:GNode {branch_id: $branchId, id: n.parent_id})
   FOREACH (_ IN CASE WHEN parent IS NULL THEN [] ELSE [1] END | CREATE (parent)-[:CONTAINS]->(n))`;

export const moveNodes = cypher(
  'moveNodes',
  `UNWIND $nodeIds AS nid
   MATCH (n:GNode {branch_id: $branchId, id: nid})
   SET n.parent_id = $parentId, n.scope = coalesce($parentId, '')
   WITH n
   ${LINK_TO_PARENT}
   RETURN count(n) AS moved`,
);

/** Links nodes written with their parent_id (a merge copies them) to that parent. */
export const relinkParents = cypher(
  'relinkParents',
  `UNWIND $nodeIds AS nid
   MATCH (n:GNode {branch_id: $branchId, id: nid})
   ${LINK_TO_PARENT}
   RETURN count(n) AS linked`,
);

/** Direct children of a node, through containment (never a scan of the scope). */
export const childrenOf = cypher(
  'childrenOf',
  `MATCH (:GNode {branch_id: $branchId, id: $id})-[:CONTAINS]->(c:GNode)
   RETURN c.id AS id, c.name AS name`,
);

/** Which of $names are taken in a scope by nodes other than $excludeIds. */
export const findNamesTaken = cypher(
  'findNamesTaken',
  `UNWIND $names AS name
   MATCH (n:GNode {branch_id: $branchId, scope: $scope, name: name})
   WHERE NOT n.id IN $excludeIds
   RETURN DISTINCT name`,
);

export const deleteEdge = cypher(
  'deleteEdge',
  `MATCH (e:Edge {branch_id: $branchId, id: $id})
   DELETE e
   RETURN count(*) AS deleted`,
);

export const writePositions = cypher(
  'writePositions',
  `UNWIND $positions AS pos
   MATCH (n:GNode {branch_id: $branchId, id: pos.id})
   SET n.x = pos.x, n.y = pos.y
   RETURN count(n) AS written`,
);
