/**
 * The merge service's public entry point: everything other services and processes use of it.
 */
export { mergeRoutes } from './mergeRoutes';
