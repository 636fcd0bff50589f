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

/**
 * The entities labelled `label` with ids $ids written on branch $to (created when
 * missing) with the properties they have on branch $from; `dst` is the written one.
 */
const COPY_BY_ID = (label: 'GNode' | 'Port' | 'Edge') => `UNWIND $ids AS id
   MATCH (src:${label} {branch_id: $from, id: id})
   MERGE (dst:${label} {branch_id: $to, id: id})
   SET dst = src {.*, branch_id: $to}`;

/** Nodes; their containment is re-linked afterwards (graph's relinkParents). */
export const syncNodes = cypher('syncNodes', `${COPY_BY_ID('GNode')} RETURN count(dst) AS synced`);

/** Ports, each moved under the node it now belongs to. */
export const syncPorts = cypher(
  'syncPorts',
  `${COPY_BY_ID('Port')}
   WITH dst
   OPTIONAL MATCH (:GNode)-[old:HAS_PORT]->(dst)
   DELETE old
   WITH DISTINCT dst
   MATCH (n:GNode {branch_id: $to, id: dst.node_id})
   CREATE (n)-[:HAS_PORT]->(dst)
   RETURN count(dst) AS synced`,
);

export const syncEdges = cypher('syncEdges', `${COPY_BY_ID('Edge')} RETURN count(dst) AS synced`);
