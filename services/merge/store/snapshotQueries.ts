/**
 * Whole-branch reads for merge snapshots (graphSnapshot.ts): every node, port and
 * wire of a branch by the (branch_id) indexes, unordered and without the derived
 * endpoints of graph reads, since a snapshot is keyed by id.
 */
import { cypher } from '../../../shared/neo4j/namedQuery';

export const snapshotNodes = cypher(
  'snapshotNodes',
  `MATCH (n:GNode {branch_id: $branchId})
   RETURN n {.*} AS node`,
);

export const snapshotPorts = cypher(
  'snapshotPorts',
  `MATCH (p:Port {branch_id: $branchId})
   RETURN p {.id, .node_id, .channel, .ord, .name, .type, .description, .external,
             .contract_name} AS port`,
);

export const snapshotEdges = cypher(
  'snapshotEdges',
  `MATCH (e:Edge {branch_id: $branchId})
   RETURN e.id AS id, e.source_handle AS source_handle, e.target_handle AS target_handle`,
);
