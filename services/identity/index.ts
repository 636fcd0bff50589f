/**
 * The identity service's public entry point: everything other services and processes use of it.
 */
export { AuthCache } from './authCache';
export { Authenticator } from './authenticator';
export { addMember } from './commands/addMember';
export { checkUserName, createApiKey } from './commands/createApiKey';
export { revokeApiKey } from './commands/revokeApiKey';
export {
  hasRole,
  ownedProject,
  projectGrant,
  requireRole,
  requireScope,
  visibleProject,
} from './projectAccess';
export type { ProjectGrant, ProjectRecord, Role } from './projectAccess';
export { identitySchema, lockUser, mergeUserByName } from './store/identityQueries';
