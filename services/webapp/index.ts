/**
 * The webapp service's public entry point: everything other services and processes use of it.
 */
export { webAppRouter } from './webAppRouter';
