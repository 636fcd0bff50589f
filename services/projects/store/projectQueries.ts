/** Cypher of the projects service. */
import { cypher } from '../../../shared/neo4j/namedQuery';

export const projectSchema = [
  cypher(
    'projectIdUnique',
    'CREATE CONSTRAINT project_id IF NOT EXISTS FOR (p:Project) REQUIRE p.id IS UNIQUE',
  ),
  cypher(
    'projectOwnerIndex',
    'CREATE INDEX project_owner IF NOT EXISTS FOR (p:Project) ON (p.owner_id, p.name_lower)',
  ),
];

export const countOwnedProjects = cypher(
  'countOwnedProjects',
  `MATCH (p:Project {owner_id: $userId})
   WHERE p.deleted_at IS NULL
   RETURN count(p) AS total`,
);

export const findActiveNameClash = cypher(
  'findActiveNameClash',
  `MATCH (p:Project {owner_id: $userId, name_lower: $nameLower})
   WHERE p.deleted_at IS NULL AND p.archived = false AND p.id <> $excludeId
   RETURN p.id AS id LIMIT 1`,
);

export const createProject = cypher(
  'createProject',
  `MATCH (u:User {id: $userId})
   CREATE (p:Project {id: $id, name: $name, name_lower: $nameLower, owner_id: $userId,
                      archived: false, intent: $intent, language: $language,
                      created_at: $now, updated_at: $now, last_opened_at: null})
   CREATE (u)-[:MEMBER_OF {role: 'owner', granted_at: $now}]->(p)
   RETURN p {.*} AS project`,
);

export const listVisibleProjects = cypher(
  'listVisibleProjects',
  `MATCH (:User {id: $userId})-[:MEMBER_OF]->(p:Project)
   WHERE p.deleted_at IS NULL
     AND ($includeArchived OR p.archived = false)
     AND ($allowlist IS NULL OR p.id IN $allowlist)
   RETURN p {.*} AS project
   ORDER BY p.updated_at DESC, p.id ASC
   LIMIT toInteger($limit)`,
);

export const updateProject = cypher(
  'updateProject',
  `MATCH (p:Project {id: $id})
   SET p += $changes, p.updated_at = $now
   RETURN p {.*} AS project`,
);

/**
 * Takes the write lock of every branch of the project, main first, then by id (the
 * order merges and forks take them in). Archiving holds them: an apply, merge or
 * fork in flight finishes first, and any later one sees the project archived.
 */
export const lockProjectBranches = cypher(
  'lockProjectBranches',
  `MATCH (b:Branch {project_id: $projectId}) WHERE b.deleted_at IS NULL
   WITH b ORDER BY b.is_main DESC, b.id ASC
   SET b.lock_seq = coalesce(b.lock_seq, 0) + 1
   RETURN count(b) AS locked`,
);

/** Removes the project from every route at once; its content is purged afterwards. */
export const markProjectDeleted = cypher(
  'markProjectDeleted',
  `MATCH (p:Project {id: $id})
   SET p.deleted_at = $now, p.name_lower = null
   WITH p
   OPTIONAL MATCH (b:Branch {project_id: p.id})
   SET b.deleted_at = $now
   RETURN p.id AS id`,
);

export const touchProjectOpened = cypher(
  'touchProjectOpened',
  `MATCH (p:Project {id: $id})
   SET p.last_opened_at = $now
   RETURN p.id AS id`,
);
