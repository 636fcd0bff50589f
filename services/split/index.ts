/**
 * The split service's public entry point: everything other services and processes use of it.
 */
export { remoteOperations } from './remoteOperations';
export { startOwnerService } from './startOwnerService';
export type { RunningOwnerService } from './startOwnerService';
