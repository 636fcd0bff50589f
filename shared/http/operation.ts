/**
 * The contract between the gateway and the services: a service exposes one
 * OperationHandler per OpenAPI operationId. A handler parses its input, calls the
 * domain, and presents the result; it never writes to the HTTP response itself.
 */
import type { Logger } from 'pino';
import type { Principal } from './principal';

export interface OperationRequest {
  operationId: string;
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: unknown;
  headers: Record<string, string | undefined>;
  principal: Principal;
  requestId: string;
  log: Logger;
}

export interface OperationResult {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export type OperationHandler = (request: OperationRequest) => Promise<OperationResult>;

export type OperationTable = Record<string, OperationHandler>;

export function ok(body: unknown, headers?: Record<string, string>): OperationResult {
  return { status: 200, body, headers };
}

export function created(body: unknown): OperationResult {
  return { status: 201, body };
}

/** The JSON body as an object, or {} when it is absent or not an object. */
export function bodyObject(body: unknown): Record<string, unknown> {
  return body !== null && typeof body === 'object' && !Array.isArray(body)
    ? (body as Record<string, unknown>)
    : {};
}
