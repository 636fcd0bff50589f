/** Coherence findings of §2.13 over a branch's graph, computed in Cypher. */
import { cypher } from '../../../shared/neo4j/namedQuery';

/** Input ports with no incoming wire. */
export const unsatisfiedInputs = cypher(
  'unsatisfiedInputs',
  `MATCH (p:Port {branch_id: $branchId})
   WHERE p.channel = 'inputs'
     AND NOT EXISTS { MATCH (:Edge {branch_id: $branchId, target_handle: p.id}) }
   RETURN p.id AS locator, p.name AS name, p.node_id AS nodeId`,
);

/** Wires with a non-null handle that names no port, and wires joining different types. */
export const wireFindings = cypher(
  'wireFindings',
  `MATCH (e:Edge {branch_id: $branchId})
   OPTIONAL MATCH (sp:Port {branch_id: $branchId, id: e.source_handle})
   OPTIONAL MATCH (tp:Port {branch_id: $branchId, id: e.target_handle})
   WITH e, sp, tp,
        (e.source_handle IS NOT NULL AND sp IS NULL) OR (e.target_handle IS NOT NULL AND tp IS NULL) AS dangling
   WHERE dangling OR (sp IS NOT NULL AND tp IS NOT NULL AND sp.type <> tp.type)
   RETURN e.id AS locator, dangling, sp.type AS sourceType, tp.type AS targetType`,
);

/**
 * orphan_node: when any node records provenance, every node whose own list and
 * whose enclosing boundaries' lists are all empty.
 */
export const orphanNodes = cypher(
  'orphanNodes',
  `MATCH (n:GNode {branch_id: $branchId})
   WITH collect(n) AS nodes
   WHERE any(x IN nodes WHERE size(coalesce(x.source_decisions, [])) > 0)
   UNWIND nodes AS n
   WITH n WHERE size(coalesce(n.source_decisions, [])) = 0
     AND NOT EXISTS {
       MATCH (a:GNode)-[:CONTAINS*1..]->(n) WHERE size(coalesce(a.source_decisions, [])) > 0
     }
   RETURN n.id AS locator, n.name AS name`,
);
