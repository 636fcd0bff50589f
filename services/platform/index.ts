/**
 * Infrastructure every process of the service needs, in one place: the operation
 * registry read from the OpenAPI document, the handlers a process serves, schema
 * creation, opening and closing Neo4j, Redis and the HTTP listener, metrics, and
 * the one process start-up and shutdown (runProcess).
 */
export { drainServer } from './drainServer';
export type { DrainResult } from './drainServer';
export { ensureSchema } from './ensureSchema';
export { operationHandlers } from './operationHandlers';
export type { HandlerDeps } from './operationHandlers';
export {
  loadOperationRegistry,
  OPENAPI_PATH,
  OperationRegistry,
  OperationRegistryError,
  operationRegistryOf,
  OWNER_NAMES,
} from './operationRegistry';
export type { OperationOwner, RegisteredOperation } from './operationRegistry';
export { closeQueue, listen, openStores, stopServing } from './processResources';
export type { Stores } from './processResources';
export { runProcess } from './runProcess';
export type { ProcessDefinition, ProcessPart } from './runProcess';
export { ServiceMetrics } from './serviceMetrics';
export { MAINTENANCE_KEY, MAINTENANCE_READ_EVERY_MS, MaintenanceFlag } from './maintenanceFlag';
export { STORE_READ_EVERY_MS } from './storeGauges';
