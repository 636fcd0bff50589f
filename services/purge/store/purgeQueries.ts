/**
 * Cypher of the background purges. Every delete runs as `CALL { ... } IN TRANSACTIONS OF 1000 ROWS`
 * through Executor.autoCommit, so a purge of any size commits in small transactions and never holds
 * locks that the API's reads and writes would wait on. Every query is idempotent: a rerun finds
 * nothing and answers 0.
 */
import { cypher } from '../../../shared/neo4j/namedQuery';

/** Indexes the sweep uses to find purges still owed. */
export const purgeSchema = [
  cypher(
    'projectDeletedIndex',
    'CREATE INDEX project_deleted IF NOT EXISTS FOR (p:Project) ON (p.deleted_at)',
  ),
  cypher(
    'branchStatusIndex',
    'CREATE INDEX branch_status IF NOT EXISTS FOR (b:Branch) ON (b.status)',
  ),
];

export const findBranchForPurge = cypher(
  'findBranchForPurge',
  `MATCH (b:Branch {id: $branchId})
   RETURN b.status AS status, b.deleted_at IS NOT NULL AS deleted`,
);

export const findProjectForPurge = cypher(
  'findProjectForPurge',
  `MATCH (p:Project {id: $projectId})
   RETURN p.deleted_at IS NOT NULL AS deleted`,
);

export const listProjectBranchIds = cypher(
  'listProjectBranchIds',
  `MATCH (b:Branch {project_id: $projectId}) WHERE b.owner_id IS NOT NULL
   RETURN b.id AS id`,
);

function batchDelete(
  name: string,
  match: string,
  remove = 'DETACH DELETE x',
): ReturnType<typeof cypher> {
  return cypher(
    name,
    `${match}
     CALL (x) { ${remove} } IN TRANSACTIONS OF 1000 ROWS
     RETURN count(*) AS deleted`,
  );
}

export const purgeBranchPorts = batchDelete(
  'purgeBranchPorts',
  'MATCH (x:Port {branch_id: $branchId})',
);
export const purgeBranchNodes = batchDelete(
  'purgeBranchNodes',
  'MATCH (x:GNode {branch_id: $branchId})',
);
export const purgeBranchEdges = batchDelete(
  'purgeBranchEdges',
  'MATCH (x:Edge {branch_id: $branchId})',
);
/** The structural_changes trail: only with the whole project (a discard keeps it). */
export const purgeBranchChanges = batchDelete(
  'purgeBranchChanges',
  'MATCH (x:Change {branch_id: $branchId}) WHERE x.version IS NOT NULL',
);
export const purgeProjectDecisions = batchDelete(
  'purgeProjectDecisions',
  'MATCH (x:Decision {project_id: $projectId})',
);
export const purgeProjectMemberships = batchDelete(
  'purgeProjectMemberships',
  'MATCH (:User)-[x:MEMBER_OF]->(:Project {id: $projectId})',
  'DELETE x',
);
export const purgeProjectBranches = batchDelete(
  'purgeProjectBranches',
  'MATCH (x:Branch {project_id: $projectId}) WHERE x.owner_id IS NOT NULL',
);

/** The last step of a project purge: the sweep stops finding it. Never a live project. */
export const deleteDeletedProject = cypher(
  'deleteDeletedProject',
  `MATCH (p:Project {id: $projectId}) WHERE p.deleted_at IS NOT NULL
   DETACH DELETE p
   RETURN count(*) AS deleted`,
);

export const markBranchPurged = cypher(
  'markBranchPurged',
  `MATCH (b:Branch {id: $branchId})
   SET b.purged_at = coalesce(b.purged_at, $now)
   RETURN b.id AS id`,
);

/** Deleted projects not yet purged (the purge removes the project node last). */
export const findUnpurgedProjects = cypher(
  'findUnpurgedProjects',
  `MATCH (p:Project) WHERE p.deleted_at IS NOT NULL
   RETURN p.id AS id
   ORDER BY p.deleted_at ASC
   LIMIT toInteger($limit)`,
);

/** Discarded branches of live projects whose content purge has not finished. */
export const findUnpurgedBranches = cypher(
  'findUnpurgedBranches',
  `MATCH (b:Branch {status: 'discarded'})
   WHERE b.purged_at IS NULL AND b.deleted_at IS NULL
   RETURN b.id AS id
   LIMIT toInteger($limit)`,
);
