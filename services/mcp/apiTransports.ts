/**
 * How the MCP tools' API calls reach the API (ApiCaller's transports):
 * - inProcessTransport: inside the gateway, the call is answered by the gateway's own
 *   request pipeline in this process (shared/http/injectRequest.ts), every middleware
 *   included, without a second HTTP round trip over loopback;
 * - fetchTransport: HTTP to a service's URL (`graphctl mcp --url`).
 */
import type { OutgoingHttpHeader } from 'node:http';
import { injectRequest, RequestListener } from '../../shared/http/injectRequest';
import { inProcessRequestSpan } from '../../shared/telemetry/telemetry';
import type { ApiTransport } from './apiCaller';

export function fetchTransport(baseUrl: string): ApiTransport {
  const base = baseUrl.replace(/\/+$/, '');
  return async ({ method, path, headers, body, signal }) => {
    const response = await fetch(`${base}${path}`, { method, headers, body, signal });
    const text = await response.text();
    return {
      status: response.status,
      text,
      header: (name) => response.headers.get(name) ?? undefined,
    };
  };
}

function headerText(value: OutgoingHttpHeader | undefined): string | undefined {
  if (value === undefined) return undefined;
  return Array.isArray(value) ? value.join(', ') : String(value);
}

/**
 * Calls answered by `listener` (the gateway's app) in this process, as coming from
 * `remoteAddress`: the address the agent's own request came from. With the agent's
 * X-Forwarded-For passed on unchanged, the gateway derives the same client address for
 * each call as for the agent's request (what the address bucket and logs see).
 */
export function inProcessTransport(listener: RequestListener, remoteAddress: string): ApiTransport {
  return (request) =>
    inProcessRequestSpan(request.method, async () => {
      const answer = await injectRequest(listener, { ...request, remoteAddress });
      return {
        status: answer.status,
        text: answer.body,
        header: (name: string) => headerText(answer.headers[name]),
      };
    });
}
