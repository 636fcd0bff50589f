/** Cypher of the identity service: users, API keys, project memberships. */
import { cypher } from '../../../shared/neo4j/namedQuery';

export const identitySchema = [
  cypher(
    'userIdUnique',
    'CREATE CONSTRAINT user_id IF NOT EXISTS FOR (u:User) REQUIRE u.id IS UNIQUE',
  ),
  cypher(
    'userNameUnique',
    'CREATE CONSTRAINT user_name IF NOT EXISTS FOR (u:User) REQUIRE u.name IS UNIQUE',
  ),
  cypher(
    'keyIdUnique',
    'CREATE CONSTRAINT api_key_id IF NOT EXISTS FOR (k:ApiKey) REQUIRE k.id IS UNIQUE',
  ),
  cypher(
    'keyHashUnique',
    'CREATE CONSTRAINT api_key_hash IF NOT EXISTS FOR (k:ApiKey) REQUIRE k.hash IS UNIQUE',
  ),
];

export const mergeUserByName = cypher(
  'mergeUserByName',
  `MERGE (u:User {name: $name})
   ON CREATE SET u.id = $newId, u.created_at = $now
   RETURN u.id AS id, u.name AS name`,
);

export const findUserByName = cypher(
  'findUserByName',
  'MATCH (u:User {name: $name}) RETURN u.id AS id, u.name AS name',
);

export const createApiKey = cypher(
  'createApiKey',
  `MATCH (u:User {id: $userId})
   CREATE (k:ApiKey {id: $keyId, hash: $hash, user_id: u.id, scopes: $scopes,
                     projects: $projects, revoked: false, created_at: $now})
   RETURN k.id AS id`,
);

export const findActiveKeyByHash = cypher(
  'findActiveKeyByHash',
  `MATCH (k:ApiKey {hash: $hash})
   WHERE k.revoked = false
   RETURN k.id AS keyId, k.user_id AS userId, k.scopes AS scopes, k.projects AS projects`,
);

/** findActiveKeyByHash for several hashes at once (the lookups gathered by KeyLookupBatch). */
export const findActiveKeysByHashes = cypher(
  'findActiveKeysByHashes',
  `UNWIND $hashes AS hash
   MATCH (k:ApiKey {hash: hash})
   WHERE k.revoked = false
   RETURN hash, k.id AS keyId, k.user_id AS userId, k.scopes AS scopes, k.projects AS projects`,
);

export const revokeApiKey = cypher(
  'revokeApiKey',
  `MATCH (k:ApiKey {id: $keyId})
   SET k.revoked = true, k.revoked_at = coalesce(k.revoked_at, $now)
   RETURN k.id AS id, k.user_id AS userId`,
);

/** Grants a role; never lowers the owner's role. */
export const upsertMembership = cypher(
  'upsertMembership',
  `MATCH (u:User {id: $userId})
   MATCH (p:Project {id: $projectId}) WHERE p.deleted_at IS NULL
   MERGE (u)-[m:MEMBER_OF]->(p)
   ON CREATE SET m.role = $role, m.granted_at = $now
   ON MATCH SET m.role = CASE WHEN m.role = 'owner' THEN 'owner' ELSE $role END
   RETURN m.role AS role`,
);

/** A project with the caller's role on it (null when none). */
export const findProjectWithRole = cypher(
  'findProjectWithRole',
  `MATCH (p:Project {id: $projectId})
   WHERE p.deleted_at IS NULL
   OPTIONAL MATCH (:User {id: $userId})-[m:MEMBER_OF]->(p)
   RETURN p {.*} AS project, m.role AS role`,
);

/**
 * Project $projectId (when not deleted) with the role of each user of $userIds on it (a
 * null role: no member), in one statement: a shared feed poll checks all its followers.
 */
export const findProjectWithRoles = cypher(
  'findProjectWithRoles',
  `MATCH (p:Project {id: $projectId})
   WHERE p.deleted_at IS NULL
   UNWIND $userIds AS userId
   OPTIONAL MATCH (:User {id: userId})-[m:MEMBER_OF]->(p)
   RETURN p {.*} AS project, collect({user: userId, role: m.role}) AS roles`,
);

/**
 * Takes the exclusive lock on the user's node for the rest of the transaction, so
 * that name-uniqueness and cap checks of one user's concurrent writes serialize.
 */
export const lockUser = cypher(
  'lockUser',
  `MATCH (u:User {id: $userId})
   SET u.lock_seq = coalesce(u.lock_seq, 0) + 1
   RETURN u.id AS id`,
);
