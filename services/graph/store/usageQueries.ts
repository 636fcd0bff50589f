/**
 * A branch's usage counters (node_count, edge_count, stored_bytes on the Branch),
 * kept by every write so the per-branch quotas are checked without a scan.
 */
import { cypher } from '../../../shared/neo4j/namedQuery';
import { allStates } from './visibility';

/** Counts the nodes and wires a view sees (for a branch written before the counters existed). */
export const measureBranch = cypher(
  'measureBranch',
  `CALL () {
     ${allStates('s', 'GNode')}
     RETURN count(s) AS nodes
   }
   CALL () {
     ${allStates('s', 'Edge')}
     RETURN count(s) AS edges
   }
   RETURN nodes, edges`,
);

export const setBranchUsage = cypher(
  'setBranchUsage',
  `MATCH (b:Branch {id: $branchId})
   SET b.node_count = $nodes, b.edge_count = $edges, b.stored_bytes = $bytes
   RETURN b.id AS id`,
);
