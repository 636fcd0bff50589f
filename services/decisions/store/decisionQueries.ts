/** Cypher of the decisions service (see decisionRecord.ts). */
import { cypher } from '../../../shared/neo4j/namedQuery';

export const decisionSchema = [
  cypher(
    'decisionIdUnique',
    'CREATE CONSTRAINT decision_id IF NOT EXISTS FOR (d:Decision) REQUIRE d.id IS UNIQUE',
  ),
  cypher(
    'decisionProjectIndex',
    'CREATE INDEX decision_project IF NOT EXISTS FOR (d:Decision) ON (d.project_id)',
  ),
];

/** One page of settled decisions, newest first; one row more than asked = has_more. */
export const listDecisionsPage = cypher(
  'listDecisionsPage',
  `MATCH (d:Decision {project_id: $projectId})
   WHERE d.state IN $states
   RETURN d {.*} AS decision
   ORDER BY d.captured_at DESC, d.id DESC
   SKIP toInteger($offset) LIMIT toInteger($limit) + 1`,
);

/** A decision in any state; the command decides what may be served. */
export const findDecision = cypher(
  'findDecision',
  `MATCH (d:Decision {id: $id}) RETURN d {.*} AS decision`,
);

/**
 * Takes the project's write lock and answers only while it is not deleted, so an
 * ingestion either commits before a project delete (and the purge sees its
 * decisions) or sees the delete and writes nothing.
 */
export const lockLiveProject = cypher(
  'lockLiveProject',
  `MATCH (p:Project {id: $projectId})
   SET p.lock_seq = coalesce(p.lock_seq, 0) + 1
   WITH p WHERE p.deleted_at IS NULL
   RETURN p.id AS id`,
);

/** Decision ids that already belong to another project (ids are global). */
export const findForeignDecisionIds = cypher(
  'findForeignDecisionIds',
  `UNWIND $ids AS id
   MATCH (d:Decision {id: id})
   WHERE d.project_id <> $projectId
   RETURN d.id AS id, d.project_id AS projectId`,
);

/**
 * Upsert by id: every stored field is replaced by the record's (a null removes
 * the property, which reads back as null). A decision is written only within its
 * own project: the MERGE holds the id's uniqueness lock, so a record whose id another
 * project took meanwhile (a concurrent job) is skipped here, never moved, and the
 * count comes back short.
 */
export const upsertDecisions = cypher(
  'upsertDecisions',
  `UNWIND $records AS r
   MERGE (d:Decision {id: r.id})
   ON CREATE SET d.created_at = $now, d.project_id = r.project_id
   WITH d, r WHERE d.project_id = r.project_id
   SET d += r, d.ingested_at = $now
   RETURN count(d) AS upserted`,
);
