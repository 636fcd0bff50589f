/**
 * The gateway service's public entry point: everything other services and processes use of it.
 */
export { createGateway } from './app';
export { drainServer } from './drainServer';
export { ensureSchema } from './ensureSchema';
export { opsRouter } from './opsRouter';
export { RateLimits } from './rateLimits';
export { OPENAPI_PATH, startService } from './server';
export type { RunningService } from './server';
export { ServiceMetrics } from './serviceMetrics';
