/**
 * The typed API client: openapi-fetch over the generated OpenAPI types, same
 * origin only, the key from sessionStorage as the bearer header. Errors become
 * ApiError with the status and the `detail` the service answered.
 */
import createClient from 'openapi-fetch';
import type { components, paths } from '../../shared/api/openapi.generated';
import { readKey } from './keyStore';

export type Schemas = components['schemas'];
export type WireNode = Schemas['WireNode'];
export type WireEdge = Schemas['WireEdge'];
export type WirePort = Schemas['WirePort'];
export type Finding = Schemas['Finding'];

export const api = createClient<paths>({ baseUrl: window.location.origin });

api.use({
  onRequest({ request }) {
    const key = readKey();
    if (key) request.headers.set('Authorization', `Bearer ${key}`);
    return request;
  },
});

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: unknown,
  ) {
    super(describe(status, detail));
  }
}

function describe(status: number, detail: unknown): string {
  if (status === 401)
    return 'The API key was not accepted (401 unauthenticated). Paste a valid key.';
  if (status === 403) return 'This key may not read that (403 forbidden).';
  if (status === 404) return 'Not found, or not visible to this key (404).';
  if (status === 429) return 'Too many requests (429): wait a moment and reload.';
  const message =
    detail && typeof detail === 'object' && 'message' in detail
      ? String((detail as { message: unknown }).message)
      : JSON.stringify(detail);
  return `The service answered ${status}: ${message}`;
}

/** The body of a successful answer, or an ApiError. */
export async function unwrap<T>(
  call: Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<T> {
  const { data, error, response } = await call;
  if (data !== undefined && response.ok) return data;
  const detail = (error as { detail?: unknown } | undefined)?.detail ?? error;
  throw new ApiError(response.status, detail);
}
