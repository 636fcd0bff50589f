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
  /**
   * Aborted when the caller hangs up before the answer (shared/http/hangUpSignal.ts):
   * work done for it is cancelled. Absent for calls no caller can leave.
   */
  signal?: AbortSignal;
}

/**
 * Where a body streamed in pieces is written. Each write resolves when the next piece
 * may follow (the reader keeps up), so a large answer never sits whole in memory.
 */
export interface BodyWriter {
  write(piece: string | Uint8Array): Promise<void>;
}

/** About how many characters a streamed JSON body gathers before each write. */
const PIECE = 64 * 1024;

/**
 * Text gathered into pieces of about PIECE characters before it is written to `out`:
 * a streamed body is made of many small parts (a row each), and a write per part would
 * cost a wait on the reader per row.
 */
export class Pieces {
  private pending = '';

  constructor(private readonly out: BodyWriter) {}

  async add(text: string): Promise<void> {
    this.pending += text;
    if (this.pending.length >= PIECE) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.pending === '') return;
    const piece = this.pending;
    this.pending = '';
    await this.out.write(piece);
  }
}

export interface OperationResult {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  /**
   * A JSON body written in pieces, instead of `body`. What fails before its first piece
   * answers as an error does; a failure after it cuts the response short (a reader sees
   * an incomplete body, never a complete wrong one).
   */
  stream?: (out: BodyWriter) => Promise<void>;
}

export type OperationHandler = (request: OperationRequest) => Promise<OperationResult>;

export type OperationTable = Record<string, OperationHandler>;

export function ok(body: unknown, headers?: Record<string, string>): OperationResult {
  return { status: 200, body, headers };
}

/** A 200 whose JSON body `stream` writes in pieces. */
export function streamed(
  stream: (out: BodyWriter) => Promise<void>,
  headers?: Record<string, string>,
): OperationResult {
  return { status: 200, body: undefined, headers, stream };
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
