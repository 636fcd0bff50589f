/**
 * Cypher of a fast-forward merge: main is brought to the branch's
 * content by writing only what differs (the snapshot diff), so the cost follows
 * the size of the change, not of the graph. Entities are copied property for
 * property from the branch, by index seek on (branch_id, id).
 */
import { cypher } from '../../../shared/neo4j/namedQuery';

export const deleteEdgesById = cypher(
  'deleteEdgesById',
  `UNWIND $ids AS id
   MATCH (e:Edge {branch_id: $branchId, id: id})
   DELETE e
   RETURN count(*) AS deleted`,
);

export const syncNodes = cypher(
  'syncNodes',
  `UNWIND $ids AS id
   MATCH (src:GNode {branch_id: $from, id: id})
   MERGE (dst:GNode {branch_id: $to, id: id})
   SET dst = src {.*, branch_id: $to}
   RETURN count(dst) AS synced`,
);

/** Re-links nodes to their (possibly new) parent; run after every node is written. */
export const relinkParents = cypher(
  'relinkParents',
  `UNWIND $ids AS id
   MATCH (n:GNode {branch_id: $branchId, id: id})
   OPTIONAL MATCH (:GNode)-[old:CONTAINS]->(n)
   DELETE old
   WITH DISTINCT n
   OPTIONAL MATCH (p:GNode {branch_id: $branchId, id: n.parent_id})
   FOREACH (_ IN CASE WHEN p IS NULL THEN [] ELSE [1] END | CREATE (p)-[:CONTAINS]->(n))
   RETURN count(n) AS linked`,
);

export const syncPorts = cypher(
  'syncPorts',
  `UNWIND $ids AS id
   MATCH (src:Port {branch_id: $from, id: id})
   MERGE (dst:Port {branch_id: $to, id: id})
   SET dst = src {.*, branch_id: $to}
   WITH dst
   OPTIONAL MATCH (:GNode)-[old:HAS_PORT]->(dst)
   DELETE old
   WITH DISTINCT dst
   MATCH (n:GNode {branch_id: $to, id: dst.node_id})
   CREATE (n)-[:HAS_PORT]->(dst)
   RETURN count(dst) AS synced`,
);

export const syncEdges = cypher(
  'syncEdges',
  `UNWIND $ids AS id
   MATCH (src:Edge {branch_id: $from, id: id})
   MERGE (dst:Edge {branch_id: $to, id: id})
   SET dst = src {.*, branch_id: $to}
   RETURN count(dst) AS synced`,
);
