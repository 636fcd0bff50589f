/** Cypher of the graph-file service. */
import { cypher } from '../../../shared/neo4j/namedQuery';

/** A live branch with its live project's name: the operator's export (graphctl export). */
export const findBranchWithProject = cypher(
  'findBranchWithProject',
  `MATCH (b:Branch {id: $branchId}) WHERE b.deleted_at IS NULL
   MATCH (p:Project {id: b.project_id}) WHERE p.deleted_at IS NULL
   RETURN b {.id, .status, .main_id, .version, .base_main_version} AS branch,
          p.name AS projectName`,
);

/**
 * A staged import in progress (importStaging.ts): the line its content is written on,
 * before a Branch of that id exists. The worker's sweep removes the records of a stage
 * abandoned long enough (services/purge).
 */
export const openStage = cypher(
  'openStage',
  `CREATE (s:VStage {line: $line, kind: $kind, started_at: $now})
   RETURN s.line AS line`,
);

/** The stage is published (in the publishing transaction) or aborted. */
export const closeStage = cypher(
  'closeStage',
  `MATCH (s:VStage {line: $line})
   DELETE s
   RETURN count(*) AS closed`,
);
