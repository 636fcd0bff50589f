/**
 * Minimal Cypher near the scoped reads, for reference in `make bench`: fewer rows than
 * the API reads (no access row, no containment chains, only the wires leaving a port,
 * no wire endpoints, no order), so they are not the ratios' baseline. The baseline
 * ("bare Cypher") is the very statement the API runs (readBench.ts).
 */
import { cypher } from '../shared/neo4j/namedQuery';

export const bareSubtree = cypher(
  'bench.bareSubtree',
  `MATCH (r:GNode {branch_id: $branchId, id: $nodeId})-[:CONTAINS*1..3]->(n:GNode)
   WITH r, collect(n) AS below
   WITH below + [r] AS nodes
   UNWIND nodes AS n
   OPTIONAL MATCH (n)-[:HAS_PORT]->(p:Port)
   OPTIONAL MATCH (e:Edge {branch_id: $branchId, source_handle: p.id})
   RETURN n {.*} AS node, collect(p {.*}) AS ports, collect(e {.*}) AS edges`,
);

export const bareNeighborhood = cypher(
  'bench.bareNeighborhood',
  `MATCH (n:GNode {branch_id: $branchId, id: $nodeId})-[:HAS_PORT]->(p:Port)
   CALL (p) {
     MATCH (e:Edge {branch_id: $branchId, source_handle: p.id}) RETURN e, e.target_handle AS other
     UNION ALL
     MATCH (e:Edge {branch_id: $branchId, target_handle: p.id}) RETURN e, e.source_handle AS other
   }
   MATCH (q:Port {branch_id: $branchId, id: other})<-[:HAS_PORT]-(m:GNode)
   RETURN e {.*} AS edge, m {.*} AS neighbor, [(m)-[:HAS_PORT]->(x) | x {.*}] AS ports`,
);

export const bareBoundary = cypher(
  'bench.bareBoundary',
  `MATCH (b:GNode {branch_id: $branchId, id: $nodeId})
   OPTIONAL MATCH (b)-[:CONTAINS]->(c:GNode)
   WITH b, collect(c {.*, ports: [(c)-[:HAS_PORT]->(x) | x {.*}]}) AS children
   MATCH (b)-[:CONTAINS*0..]->(:GNode)-[:HAS_PORT]->(p:Port)
   OPTIONAL MATCH (e:Edge {branch_id: $branchId, source_handle: p.id})
   RETURN b {.*} AS boundary, children, collect(e {.*}) AS edges`,
);
