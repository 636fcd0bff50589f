/** Copying a branch's graph content onto another, empty branch (a fork starts from main's). */
import { cypher, NamedQuery } from '../../../shared/neo4j/namedQuery';

/**
 * Every entity labelled `label` of branch $from created again on branch $to, with the
 * same properties but the new branch id. Built from the two fixed labels below only.
 */
const copyAll = (name: string, label: 'GNode' | 'Edge'): NamedQuery =>
  cypher(
    name,
    `MATCH (x:${label} {branch_id: $from})
     CREATE (y:${label}) SET y = x {.*, branch_id: $to}
     RETURN count(y) AS copied`,
  );

/** Nodes first; containment and ports attach to the copies. */
export const copyNodes = copyAll('copyNodes', 'GNode');

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

/** Wires refer to ports by id (handles), so they copy without relationships. */
export const copyEdges = copyAll('copyEdges', 'Edge');
