/**
 * The webapp service: the browser graph viewer (web/dist) served at /app.
 *
 * - webAppRouter: the static files with their Content-Security-Policy.
 */
export { webAppRouter } from './webAppRouter';
