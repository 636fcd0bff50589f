/** Cypher of graph reads. */
import { cypher } from '../../../shared/neo4j/namedQuery';

export const readBranchNodes = cypher(
  'readBranchNodes',
  `MATCH (n:GNode {branch_id: $branchId})
   RETURN n {.*} AS node
   ORDER BY n.id`,
);

export const readBranchPorts = cypher(
  'readBranchPorts',
  `MATCH (p:Port {branch_id: $branchId})
   RETURN p {.*} AS port
   ORDER BY p.node_id, p.channel, p.ord`,
);

/** Edges with their derived endpoints: null when a handle is null or dangles. */
export const readBranchEdges = cypher(
  'readBranchEdges',
  `MATCH (e:Edge {branch_id: $branchId})
   OPTIONAL MATCH (sp:Port {branch_id: $branchId, id: e.source_handle})
   OPTIONAL MATCH (tp:Port {branch_id: $branchId, id: e.target_handle})
   RETURN e.id AS id, e.source_handle AS source_handle, e.target_handle AS target_handle,
          sp.node_id AS source, tp.node_id AS target
   ORDER BY e.id`,
);
