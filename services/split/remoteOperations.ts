/**
 * The gateway's side of separate-process mode: one OperationHandler per owned
 * operation that forwards the validated request parts, with a signed identity,
 * to the owner's process and relays the answer it gets (status, body, headers).
 * An owner that cannot be reached, or that refuses the call, answers 503 with
 * Retry-After; a call never waits longer than `timeoutMs`, and ends when the caller hangs
 * up (the owner then cancels the work done for it). A streamed answer also ends, cleanly,
 * when this gateway stops (`stopping`): an event stream would otherwise hold its drain to
 * the timeout. Its caller then has what the owner sent so far (an event stream's reader
 * drops an event cut in the middle and resumes after the last whole one). A service
 * listed with several URLs (several processes) gets its calls round-robin.
 */
import { CallerGoneError, ServiceUnavailableError } from '../../shared/errors/domainErrors';
import type { BodyWriter, OperationResult, OperationTable } from '../../shared/http/operation';
import { STREAMED_RESULT_HEADER } from './internalApi';
import type { InternalCall } from './internalApi';
import { bodyDigest, IDENTITY_HEADER, internalPath, signIdentity } from './identityToken';
import type { ServiceName } from '../../shared/config/serviceNames';
import type { RegisteredOperation } from '../platform';

/** Request headers the services never need (credentials stay at the gateway). */
const DROPPED_HEADERS = new Set([
  'authorization',
  'cookie',
  'host',
  'content-length',
  'connection',
]);

/** `operations`: the ones to forward, each to its owner (a service process, not the gateway). */
export function remoteOperations(options: {
  operations: readonly RegisteredOperation[];
  serviceUrls: Readonly<Record<ServiceName, string | readonly string[]>>;
  secret: string;
  timeoutMs?: number;
  /** Aborted as this gateway begins to stop: streamed answers being relayed end. */
  stopping?: AbortSignal;
}): OperationTable {
  const table: OperationTable = {};
  const next = roundRobin(options.serviceUrls);
  for (const { operationId, owner } of options.operations) {
    if (owner === 'gateway') throw new Error(`${operationId} is the gateway's own operation`);
    table[operationId] = async (req) => {
      const url = `${next(owner).replace(/\/$/, '')}${internalPath(operationId)}`;
      const headers: Record<string, string | undefined> = {};
      for (const [name, value] of Object.entries(req.headers)) {
        if (!DROPPED_HEADERS.has(name.toLowerCase())) headers[name] = value;
      }
      const call: InternalCall = { params: req.params, query: req.query, body: req.body, headers };
      const body = JSON.stringify(call);
      const identity = signIdentity(options.secret, req, {
        method: 'POST',
        path: internalPath(operationId),
        digest: bodyDigest(body),
      });
      let response: Response;
      // the call ends when the caller hangs up (the owner then cancels its work) or at the timeout
      const timeout = AbortSignal.timeout(options.timeoutMs ?? 60_000);
      try {
        response = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', [IDENTITY_HEADER]: identity },
          body,
          signal: req.signal ? AbortSignal.any([req.signal, timeout]) : timeout,
        });
      } catch (error) {
        if (req.signal?.aborted) throw new CallerGoneError();
        req.log.warn({ owner, err: (error as Error).message }, 'owner service unreachable');
        throw new ServiceUnavailableError(`the ${owner} service is unavailable, retry later`);
      }
      if (response.status !== 200) {
        req.log.error({ owner, status: response.status }, 'owner service refused the call');
        throw new ServiceUnavailableError(`the ${owner} service refused the call, retry later`);
      }
      const streamed = response.headers.get(STREAMED_RESULT_HEADER);
      if (streamed === null || response.body === null)
        return (await response.json()) as OperationResult;
      const head = JSON.parse(streamed) as Pick<OperationResult, 'status' | 'headers'>;
      const pieces = response.body;
      return {
        ...head,
        body: undefined,
        // the owner's pieces are passed on as they come; a cut there cuts the answer here
        stream: (out) => relay(pieces, out, options.stopping),
      };
    };
  }
  return table;
}

/**
 * Writes the owner's `pieces` to `out` as they come, until they end or `stopping` aborts
 * (the upstream body is then cancelled: the owner sees its caller leave).
 */
async function relay(
  pieces: ReadableStream<Uint8Array>,
  out: BodyWriter,
  stopping: AbortSignal | undefined,
): Promise<void> {
  const reader = pieces.getReader();
  const stop = () => void reader.cancel().catch(() => undefined);
  if (stopping?.aborted) stop();
  stopping?.addEventListener('abort', stop, { once: true });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      await out.write(value);
    }
  } finally {
    stopping?.removeEventListener('abort', stop);
  }
}

/** The next URL of a service, in turn over its processes. */
function roundRobin(
  urls: Readonly<Record<ServiceName, string | readonly string[]>>,
): (service: ServiceName) => string {
  const turns = new Map<ServiceName, number>();
  return (service) => {
    const list = urls[service];
    if (typeof list === 'string') return list;
    const turn = turns.get(service) ?? 0;
    turns.set(service, (turn + 1) % list.length);
    return list[turn];
  };
}
