/** Copying a branch's graph content to another branch (forkBranch; a fast-forward mergeBranch). */
import { cypher } from '../../../shared/neo4j/namedQuery';

export const copyNodes = cypher(
  'copyNodes',
  `MATCH (n:GNode {branch_id: $from})
   CREATE (m:GNode) SET m = n {.*, branch_id: $to}
   RETURN count(m) AS copied`,
);

export const copyContainment = cypher(
  'copyContainment',
  `MATCH (c:GNode {branch_id: $to}) WHERE c.parent_id IS NOT NULL
   MATCH (p:GNode {branch_id: $to, id: c.parent_id})
   CREATE (p)-[:CONTAINS]->(c)
   RETURN count(*) AS copied`,
);

export const copyPorts = cypher(
  'copyPorts',
  `MATCH (p:Port {branch_id: $from})
   MATCH (n:GNode {branch_id: $to, id: p.node_id})
   CREATE (n)-[:HAS_PORT]->(q:Port) SET q = p {.*, branch_id: $to}
   RETURN count(q) AS copied`,
);

export const copyEdges = cypher(
  'copyEdges',
  `MATCH (e:Edge {branch_id: $from})
   CREATE (f:Edge) SET f = e {.*, branch_id: $to}
   RETURN count(f) AS copied`,
);

/** Removes a branch's content; used inside a transaction for small graphs (merge). */
export const deleteBranchContent = cypher(
  'deleteBranchContent',
  `CALL {
     MATCH (n:GNode {branch_id: $branchId}) DETACH DELETE n
   }
   CALL {
     MATCH (p:Port {branch_id: $branchId}) DETACH DELETE p
   }
   CALL {
     MATCH (e:Edge {branch_id: $branchId}) DELETE e
   }
   RETURN true AS done`,
);
