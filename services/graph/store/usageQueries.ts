/**
 * A branch's usage counters (node_count, edge_count, stored_bytes on the Branch),
 * kept by every write so the per-branch quotas are checked without a scan.
 */
import { cypher } from '../../../shared/neo4j/namedQuery';

/** Counts a branch's nodes and wires (for a branch written before the counters existed). */
export const measureBranch = cypher(
  'measureBranch',
  `RETURN COUNT { MATCH (:GNode {branch_id: $branchId}) } AS nodes,
          COUNT { MATCH (:Edge {branch_id: $branchId}) } AS edges`,
);

export const setBranchUsage = cypher(
  'setBranchUsage',
  `MATCH (b:Branch {id: $branchId})
   SET b.node_count = $nodes, b.edge_count = $edges, b.stored_bytes = $bytes
   RETURN b.id AS id`,
);
