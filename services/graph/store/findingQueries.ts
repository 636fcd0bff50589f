/**
 * Coherence findings (the Finding schema) over a branch's graph, in Cypher. Names and
 * types come back cut to a few characters more than a finding quotes (CLIP_LENGTH),
 * so a long port type is never copied into every finding that mentions it.
 */
import { cypher } from '../../../shared/neo4j/namedQuery';

/** Input ports with no incoming wire. */
export const unsatisfiedInputs = cypher(
  'unsatisfiedInputs',
  `MATCH (p:Port {branch_id: $branchId})
   WHERE p.channel = 'inputs'
     AND NOT EXISTS { MATCH (:Edge {branch_id: $branchId, target_handle: p.id}) }
   RETURN p.id AS locator, left(coalesce(p.name, ''), $quoted) AS name`,
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
   RETURN e.id AS locator, dangling,
          left(coalesce(sp.type, ''), $quoted) AS sourceType,
          left(coalesce(tp.type, ''), $quoted) AS targetType`,
);

/** Whether any node of the branch records provenance (orphan_node applies only then). */
export const anyProvenance = cypher(
  'anyProvenance',
  `MATCH (n:GNode {branch_id: $branchId})
   WHERE size(coalesce(n.source_decisions, [])) > 0
   RETURN n.id AS id LIMIT 1`,
);

/**
 * Every node with its parent and whether it records provenance: the containment
 * tree in one scan, so orphan_node is decided in one pass over it (findings.ts)
 * instead of a walk up from every node.
 */
export const provenanceTree = cypher(
  'provenanceTree',
  `MATCH (n:GNode {branch_id: $branchId})
   RETURN n.id AS id, n.parent_id AS parentId,
          size(coalesce(n.source_decisions, [])) > 0 AS traced,
          left(coalesce(n.name, ''), $quoted) AS name`,
);
