/**
 * The graphfile service's public entry point: everything other services and processes use of it.
 */
export { exportBranchFileAsOperator } from './commands/exportBranchFile';
export { importProjectForUser } from './commands/importProject';
export { graphFileRoutes } from './graphFileRoutes';
