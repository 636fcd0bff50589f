/**
 * The projects service's public entry point: everything other services and processes use of it.
 */
export { insertProject } from './commands/createProject';
export type { CreatedProject } from './commands/createProject';
export { presentProject } from './projectPresenter';
export { projectRoutes } from './projectRoutes';
export { DEFAULT_INTENT, DEFAULT_LANGUAGE, checkProjectName } from './projectRules';
export { projectSchema, touchProjectOpened } from './store/projectQueries';
