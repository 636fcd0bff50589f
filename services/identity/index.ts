/**
 * The identity service: users, API keys, project memberships and roles.
 *
 * - authentication: Authenticator (bearer token to Principal), AuthCache and the
 *   RevocationFeed that pushes revocations to it;
 * - access: visibleProject, ownedProject, projectGrant, hasRole, requireRole,
 *   requireScope, requireKeyForAllProjects;
 * - users: checkUserName, ensureUser (the user of a name, created when new),
 *   lockUser (the per-user write lock of a transaction);
 * - commands (graphctl): createApiKey, revokeApiKey, addMember;
 * - schema: identitySchema (constraints, run at start-up).
 */
export { AuthCache } from './authCache';
export { Authenticator } from './authenticator';
export { RevocationFeed } from './revocationFeed';
export { addMember } from './commands/addMember';
export { createApiKey } from './commands/createApiKey';
export type { CreatedKey } from './commands/createApiKey';
export { revokeApiKey } from './commands/revokeApiKey';
export {
  hasRole,
  ownedProject,
  projectGrant,
  requireKeyForAllProjects,
  requireRole,
  requireScope,
  visibleProject,
  visibleToEach,
} from './projectAccess';
export type { ProjectGrant, ProjectRecord, Role } from './projectAccess';
export { identitySchema } from './store/identityQueries';
export { checkUserName, ensureUser, lockUser } from './users';
