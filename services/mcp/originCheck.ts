/**
 * DNS-rebinding protection of /mcp, as the MCP transport rules require: a web page
 * on a name its owner points at this machine (or at the service inside a private
 * network) would otherwise reach /mcp from the visitor's browser, so a request whose
 * `Origin` is present and not allowed is refused (403) before anything else.
 * Allowed: the loopback origins (localhost, 127.0.0.1, [::1], any port, http or
 * https) and the origins MCP_ALLOWED_ORIGINS lists (the service's own public
 * origin, e.g. https://graph.example.com); `*` allows every origin. A request
 * without Origin (an agent, a CLI: not a browser) is not a browser's and passes.
 * The request's Host is never taken for the service's own origin: under DNS
 * rebinding the browser sends the attacker's name there too.
 */

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** The origin of a URL (scheme, host, port: default ports dropped), or undefined. */
export function originOf(value: string): string | undefined {
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    return url.origin;
  } catch {
    return undefined;
  }
}

function isLoopback(origin: string): boolean {
  return LOOPBACK_HOSTS.has(new URL(origin).hostname);
}

/** Whether a request carrying `origin` (the header, absent when undefined) may use /mcp. */
export function mcpOriginAllowed(origin: string | undefined, allowed: readonly string[]): boolean {
  if (origin === undefined) return true;
  if (allowed.includes('*')) return true;
  const normal = originOf(origin);
  if (normal === undefined) return false; // "null" (a sandboxed page, a file) or garbage
  return isLoopback(normal) || allowed.includes(normal);
}
