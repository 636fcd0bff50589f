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
 * before a Branch of that id exists, and its lease (lease_until, ms): the worker's sweep
 * removes the records of a stage whose lease ran out (services/purge).
 */
export const openStage = cypher(
  'openStage',
  `CREATE (s:VStage {line: $line, kind: $kind, started_at: $now, lease_until: $until})
   RETURN s.line AS line`,
);

/**
 * Takes the stage's lock (held until the transaction ends, so the sweep cannot take
 * the stage meanwhile) and extends its lease to $until, unless the sweep has taken it
 * (taken_at) or removed it: then there is no row.
 */
export const holdStage = cypher(
  'holdStage',
  `MATCH (s:VStage {line: $line})
   SET s.lock_seq = coalesce(s.lock_seq, 0) + 1
   WITH s WHERE s.taken_at IS NULL
   SET s.lease_until = $until
   RETURN s.line AS line`,
);

/** The stage is published (in the publishing transaction) or aborted. */
export const closeStage = cypher(
  'closeStage',
  `MATCH (s:VStage {line: $line})
   DELETE s
   RETURN count(*) AS closed`,
);
