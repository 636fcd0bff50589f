/** Cypher of the graph-file service. */
import { cypher } from '../../../shared/neo4j/namedQuery';

/** A live branch with its live project's name: the operator's export (graphctl export). */
export const findBranchWithProject = cypher(
  'findBranchWithProject',
  `MATCH (b:Branch {id: $branchId}) WHERE b.deleted_at IS NULL
   MATCH (p:Project {id: b.project_id}) WHERE p.deleted_at IS NULL
   RETURN b.id AS branchId, b.status AS status, p.name AS projectName`,
);
