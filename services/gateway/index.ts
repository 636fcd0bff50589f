/**
 * The gateway service's public entry point: everything other services and processes use of it.
 */
export { createGateway } from './app';
export { opsRouter } from './opsRouter';
export { RateLimits } from './rateLimits';
export { startService } from './server';
export type { RunningService } from './server';
