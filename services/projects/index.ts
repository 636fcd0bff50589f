/**
 * The projects service: projects (create, list, update, delete) and their HTTP routes.
 *
 * - routes: projectRoutes;
 * - commands: insertProject (a project with its main branch, inside the caller's
 *   transaction, as graph-file import does), touchProjectOpened (a full graph read
 *   records last_opened_at);
 * - rules: checkProjectName, DEFAULT_INTENT, DEFAULT_LANGUAGE;
 * - presenters: presentProject;
 * - schema: projectSchema (constraints and indexes, run at start-up).
 */
export { insertProject } from './commands/createProject';
export type { CreatedProject } from './commands/createProject';
export { touchProjectOpened } from './commands/touchProjectOpened';
export { presentProject } from './projectPresenter';
export { projectRoutes } from './projectRoutes';
export { DEFAULT_INTENT, DEFAULT_LANGUAGE, checkProjectName } from './projectRules';
export { projectSchema } from './store/projectQueries';
